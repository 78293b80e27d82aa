/**
 * `plugboard serve`: the app's UI and API for a browser, and the plugins as an MCP server for
 * other apps at `/mcp`, on loopback by default. The URL it prints carries the session's token; the
 * server refuses requests without it (an MCP client sends it as a bearer token) or from another
 * origin. Beyond loopback it needs TLS, or the person's word that the network is trusted.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { McpHttpEndpoint, McpHub } from '../../mcp-server';
import { DataPaths } from '../../plugins';
import { isLoopback, serve } from '../../server';
import { openBackend, type OpenedBackend } from '../backend';
import { EXIT_FAILED, EXIT_OK, parse, parsePositiveInt, UsageError } from '../io';
import { packageRoot } from '../package-root';
import type { CliEnv } from '../session';
import { cliMcpLaunch, dataDirOf } from '../target';

/** Removes what a serve that died left in the uploads folder; how many uploads that was. */
export function clearLeftUploads(dir: string): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const n of names) rmSync(path.join(dir, n), { recursive: true, force: true });
  return names.length;
}

export function rendererDir(): string {
  return process.env.PLUGBOARD_RENDERER_DIR ?? path.join(packageRoot(), 'out', 'renderer');
}

export async function serveCommand(argv: string[], env: CliEnv): Promise<number> {
  const { values } = parse(
    argv,
    {
      host: { type: 'string' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'trusted-network': { type: 'boolean' },
    },
    { min: 0, max: 0, names: '' },
  );
  const port = values.port === '0' || values.port === undefined ? 0 : parsePositiveInt(values.port, '--port');
  if (port !== undefined && port > 65535) throw new UsageError('--port must be at most 65535');
  const host = values.host ?? '127.0.0.1';
  const tls = readTls(values['tls-cert'], values['tls-key']);
  if (!isLoopback(host) && !tls && values['trusted-network'] !== true)
    throw new UsageError(
      `--host ${host} makes Plugboard and its plugins reachable from other machines, and its token would cross the network in clear: give --tls-cert and --tls-key, or --trusted-network if the network in between is yours`,
    );
  const staticDir = rendererDir();
  if (!existsSync(path.join(staticDir, 'index.html'))) {
    env.out.stderr(
      `plugboard serve: the UI is not built (${staticDir} has no index.html): run \`npm run build\` first\n`,
    );
    return EXIT_FAILED;
  }
  // Dropped packages wait in the data folder: the backend deletes each once installed or dropped,
  // the server removes the folder when it stops, and a serve that died leaves them where the next
  // one finds and removes them (not in /tmp, where nobody would).
  const dataDir = dataDirOf(values['data-dir']);
  const uploadsDir = new DataPaths(dataDir).uploads;
  const app: OpenedBackend = await openBackend({
    dataDir,
    autostart: true,
    transport: 'websocket',
    uploadsDir,
    approvalInbox: true,
    mcpLaunch: cliMcpLaunch(dataDir),
  });
  const { registry, backend } = app;
  // What opening the data directory tidied (modes tightened, leftover plugin processes stopped).
  for (const note of registry.startupNotes) env.out.stderr(`plugboard: ${note}\n`);
  // This serve owns the data folder now (the conversation store refuses a second one): what waits
  // in its uploads folder was left by one that died.
  const left = clearLeftUploads(uploadsDir);
  if (left > 0)
    env.out.stderr(
      `plugboard: removed ${left} upload${left === 1 ? '' : 's'} a previous plugboard serve left behind\n`,
    );
  const log = (line: string): void => env.out.stderr(`${line}\n`);
  // One token for the page and for MCP clients: the one in the printed URL.
  const token = randomBytes(24).toString('base64url');
  const hub = new McpHub({
    registry,
    version: process.env.npm_package_version ?? '0.1.0',
    log: (l) => log(`plugboard serve: MCP: ${l}`),
  });
  const mcp = new McpHttpEndpoint({ hub, token, log });
  let server;
  try {
    server = await serve({
      backend,
      staticDir,
      host,
      port: port ?? 0,
      uploadsDir,
      log,
      token,
      mcp,
      ...(tls ? { tls } : {}),
    });
  } catch (e) {
    env.out.stderr(`plugboard serve: cannot listen on ${host}:${port ?? 0}: ${(e as Error).message}\n`);
    hub.dispose();
    await app.close();
    return EXIT_FAILED;
  }
  if (!isLoopback(host))
    env.out.stderr(`warning: listening on ${host}${tls ? ' (TLS)' : ''}, reachable from other machines\n`);
  const mcpUrl = new URL('/mcp', server.url).href;
  env.out.stdout(
    `Plugboard is running at ${server.url}\nMCP clients: ${mcpUrl} with the header "Authorization: Bearer ${server.token}"\n(data directory ${registry.paths.root}; Ctrl-C to stop)\n`,
  );
  await new Promise<void>((resolve) => {
    const sub = env.onInterrupt(() => {
      sub.dispose();
      resolve();
    });
  });
  env.out.stderr('stopping plugins…\n');
  await server.close();
  hub.dispose();
  await app.close();
  return EXIT_OK;
}

/** The certificate and key for HTTPS, read now so a wrong path is a usage error, not a failed start. */
function readTls(cert: string | undefined, key: string | undefined): { cert: Buffer; key: Buffer } | undefined {
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined || key === undefined) throw new UsageError('--tls-cert and --tls-key go together');
  const read = (file: string, flag: string): Buffer => {
    try {
      return readFileSync(file);
    } catch (e) {
      throw new UsageError(`${flag} ${file}: ${(e as Error).message}`);
    }
  };
  return { cert: read(cert, '--tls-cert'), key: read(key, '--tls-key') };
}
