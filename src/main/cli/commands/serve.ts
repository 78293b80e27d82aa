/**
 * `plugboard serve`: the app's UI and API for a browser, on loopback by default. The URL it prints
 * carries the session's token; the server refuses requests without it or from another origin.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { serve } from '../../server';
import { DataPaths } from '../../plugins';
import { openBackend, type OpenedBackend } from '../backend';
import { EXIT_FAILED, EXIT_OK, parse, parsePositiveInt, UsageError } from '../io';
import { packageRoot } from '../package-root';
import { dataDirOf } from '../target';
import type { CliEnv } from '../session';

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
    { host: { type: 'string' }, port: { type: 'string' }, 'data-dir': { type: 'string' } },
    { min: 0, max: 0, names: '' },
  );
  const port = values.port === '0' || values.port === undefined ? 0 : parsePositiveInt(values.port, '--port');
  if (port !== undefined && port > 65535) throw new UsageError('--port must be at most 65535');
  const host = values.host ?? '127.0.0.1';
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
  const app: OpenedBackend = await openBackend({ dataDir, autostart: true, transport: 'websocket', uploadsDir });
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
  let server;
  try {
    server = await serve({
      backend,
      staticDir,
      host,
      port: port ?? 0,
      uploadsDir,
      log: (line) => env.out.stderr(`${line}\n`),
    });
  } catch (e) {
    env.out.stderr(`plugboard serve: cannot listen on ${host}:${port ?? 0}: ${(e as Error).message}\n`);
    await app.close();
    return EXIT_FAILED;
  }
  if (!['127.0.0.1', 'localhost', '::1'].includes(host))
    env.out.stderr(`warning: listening on ${host}, reachable from other machines\n`);
  env.out.stdout(`Plugboard is running at ${server.url}\n(data directory ${registry.paths.root}; Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    const sub = env.onInterrupt(() => {
      sub.dispose();
      resolve();
    });
  });
  env.out.stderr('stopping plugins…\n');
  await server.close();
  await app.close();
  return EXIT_OK;
}
