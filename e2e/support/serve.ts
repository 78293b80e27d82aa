/**
 * Starts a real `plugboard serve` on a fresh data directory and stops it (and every plugin it
 * started) afterwards. The data directory is prepared first with the plugins the scenarios use.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURES = path.join(REPO, 'test', 'fixtures');

export interface Served {
  url: string;
  dataDir: string;
  /** From spawning the server to its URL being printed. */
  startupMs: number;
  stop(): Promise<void>;
}

/** Runs the `plugboard` CLI on the data directory; throws with its stderr when it fails. */
export function cli(args: string[], dataDir: string): void {
  const r = spawnSync(process.execPath, [path.join(REPO, 'bin', 'plugboard.mjs'), ...args, '--data-dir', dataDir], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`plugboard ${args.join(' ')} failed: ${r.stderr}`);
}

/** Restart delays of the stress plugin: a wait for it to come back must outlast the longest. */
export const STRESS_RESTART_DELAYS_MS = [300, 1000, 5000];

/** A plugin folder running a copy of the G-Assist fixture, with the manifest given. */
export function fixturePlugin(root: string, manifest: Record<string, unknown> & { id: string }): string {
  const dir = path.join(root, manifest.id);
  mkdirSync(dir, { recursive: true });
  cpSync(path.join(FIXTURES, 'lib', 'gassist.mjs'), path.join(dir, 'plugin.mjs'));
  writeFileSync(
    path.join(dir, 'plugboard.json'),
    JSON.stringify({ version: '1.0.0', protocol: 'gassist-v2', command: ['node', 'plugin.mjs'], ...manifest }),
  );
  return dir;
}

const fn = (name: string, description: string, properties: Record<string, unknown> = {}) => ({
  name,
  description,
  parameters: { type: 'object', properties },
});

/** Streams, ticks with timestamps, counts, crashes. */
export function stressPlugin(root: string): string {
  return fixturePlugin(root, {
    id: 'stress',
    name: 'Stress',
    description: 'Misbehaves on purpose, for the end-to-end tests',
    persistent: true,
    functions: [
      fn('blast', 'Stream n chunks of size bytes', { n: { type: 'integer' }, size: { type: 'integer' } }),
      fn('count', 'Stream the numbers 1 to n, one chunk and line each', {
        n: { type: 'integer' },
        delay_ms: { type: 'integer' },
      }),
      fn('ticks', 'Stream timestamped ticks', { n: { type: 'integer' }, interval_ms: { type: 'integer' } }),
      fn('crash_mid_stream', 'Stream a few chunks, then crash', { after: { type: 'integer' } }),
    ],
    timeouts: { restartDelaysMs: STRESS_RESTART_DELAYS_MS },
  });
}

/** Two settings to edit from two windows, and a tool without parameters. */
export function tunedPlugin(root: string): string {
  return fixturePlugin(root, {
    id: 'tuned',
    name: 'Tuned',
    description: 'Has settings, for the end-to-end tests',
    persistent: false,
    // No parameters: picked in the palette, it runs at once.
    functions: [fn('echo', 'Answer, with nothing')],
    settings: {
      greeting: { type: 'string', title: 'Greeting', default: 'hello' },
      level: { type: 'number', title: 'Level', default: 1 },
    },
  });
}

/** A flat zip of the Python G-Assist fixture, for the drag-and-drop scenario. */
export function weatherZip(root: string): string {
  const out = path.join(root, 'weather.zip');
  const r = spawnSync('python3', [
    '-c',
    `
import os, sys, zipfile
src, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    for base, dirs, files in os.walk(src):
        for f in files:
            p = os.path.join(base, f)
            z.write(p, os.path.relpath(p, src))
`,
    path.join(FIXTURES, 'gassist-python'),
    out,
  ]);
  if (r.status !== 0) throw new Error(`could not zip the fixture: ${r.stderr}`);
  return out;
}

/**
 * A claude_desktop_config.json naming two MCP servers as people keep them: scripts in project
 * folders of their own (copies of the dependency-free mcpb-echo server), run by absolute path.
 */
export function claudeConfig(root: string): Buffer {
  const project = (name: string): string => {
    const dir = path.join(root, 'code', name);
    mkdirSync(path.join(dir, 'build'), { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, type: 'module' }));
    cpSync(path.join(FIXTURES, 'mcpb-echo', 'server', 'index.mjs'), path.join(dir, 'build', 'index.js'));
    return path.join(dir, 'build', 'index.js');
  };
  const servers = {
    forecast: {
      command: 'node',
      args: [project('forecast'), '--greeting', 'Sunny'],
      env: { FORECAST_API_KEY: 'fk-9Lq2XmW7pR4vZ8nK3bB6cD1t' },
    },
    journal: { command: 'node', args: [project('journal'), '--greeting', 'Noted'] },
  };
  return Buffer.from(JSON.stringify({ mcpServers: servers }, null, 2));
}

export interface ServeOptions {
  /** Prepares the data directory (plugins installed already) before the server opens it. */
  prepare?: (dataDir: string) => void | Promise<void>;
  /** Serves this data directory as it is (a restart of a server): nothing installed, nothing removed at the stop. */
  dataDir?: string;
  /** More environment for the server (the person's npm and pip settings, say). */
  env?: Record<string, string>;
}

export async function startServe(
  options: ServeOptions = {},
): Promise<Served & { halt(): Promise<void>; resume(): Promise<string> }> {
  const root = options.dataDir ? null : mkdtempSync(path.join(os.tmpdir(), 'plugboard-e2e-'));
  const dataDir = options.dataDir ?? path.join(root as string, 'data');
  if (root) {
    cli(['plugins', 'install', stressPlugin(root)], dataDir);
    cli(['plugins', 'install', tunedPlugin(root)], dataDir);
    cli(['plugins', 'install', path.join(FIXTURES, 'mcp-dynamic')], dataDir);
  }
  await options.prepare?.(dataDir);
  const started = Date.now();
  let server = await spawnServe(dataDir, '0', options.env);
  const stopServer = async (): Promise<void> => {
    const child = server.child;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  return {
    url: server.url,
    dataDir,
    startupMs: Date.now() - started,
    stop: async () => {
      await stopServer();
      if (root) rmSync(root, { recursive: true, force: true });
    },
    /** Stops the server, keeping its data directory (`resume` starts it again). */
    halt: stopServer,
    /** Starts the server again on the same port and data directory; its new URL (a new token). */
    resume: async () => {
      server = await spawnServe(dataDir, new URL(server.url).port, options.env);
      return server.url;
    },
  };
}

async function spawnServe(
  dataDir: string,
  port: string,
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(REPO, 'bin', 'plugboard.mjs'), 'serve', '--port', port, '--data-dir', dataDir],
    {
      env: { ...process.env, PLUGBOARD_E2E: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`plugboard serve printed no URL in 30 s: ${stderr}`)), 30_000);
    child.stdout?.on('data', (d) => {
      out += d;
      const m = /https?:\/\/\S+/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    child.once('exit', (code) => reject(new Error(`plugboard serve exited with ${code}: ${stderr}`)));
  });
  return { url, child };
}

export function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}
