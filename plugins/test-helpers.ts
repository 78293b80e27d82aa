/**
 * Shared by the bundled plugins' tests: start a plugin from its folder the way the host does
 * (its plugboard.json command, its folder as cwd, an allow-listed environment plus PLUGBOARD_*
 * variables and settings), speak the raw protocol to it, and clean up processes and temp folders.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PluginClient } from '../sdk/node/src/testing.js';

export { PluginClient } from '../sdk/node/src/testing.js';
export type { TurnResult, WireMessage } from '../sdk/node/src/testing.js';

export const PLUGINS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.dirname(PLUGINS_DIR);
const SDK_DIST = path.join(REPO, 'sdk', 'node', 'dist', 'index.js');

export interface Manifest {
  id: string;
  command: string[];
  functions: Array<{ name: string; description: string; parameters?: Record<string, unknown> }>;
  capabilities?: string[];
  settings?: Record<string, { env?: string }>;
  user_commands?: Array<{ name: string }>;
  auto_approved_tools?: string[];
}

export function readManifest(id: string): Manifest {
  return JSON.parse(readFileSync(path.join(PLUGINS_DIR, id, 'plugboard.json'), 'utf8')) as Manifest;
}

const tempDirs: string[] = [];
const clients: PluginClient[] = [];

/** A fresh folder under the OS temp dir, removed by cleanup(). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `plugboard-${prefix}-`));
  tempDirs.push(dir);
  return dir;
}

export interface StartOptions {
  /** The plugin's folder (default: plugins/<id>), e.g. a copy placed elsewhere. */
  dir?: string;
  /** PLUGBOARD_DATA_DIR (default: a fresh temp folder). */
  dataDir?: string;
  /** Setting values by environment variable name (e.g. FILES_ROOTS). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

const PARENT_ALLOW = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR', 'SYSTEMROOT', 'COMSPEC', 'PATHEXT', 'USERPROFILE', 'TEMP', 'TMP'];

/** Starts a bundled plugin and completes its handshake. */
export async function startPlugin(id: string, opts: StartOptions = {}): Promise<PluginClient> {
  if (!existsSync(SDK_DIST)) throw new Error(`${SDK_DIST} is missing: build the SDK first (npx tsc -p sdk/node/tsconfig.json)`);
  const dir = opts.dir ?? path.join(PLUGINS_DIR, id);
  const manifest = readManifest(id);
  const env: NodeJS.ProcessEnv = {};
  for (const k of PARENT_ALLOW) if (process.env[k] !== undefined) env[k] = process.env[k];
  Object.assign(env, {
    PLUGBOARD_PLUGIN_ID: id,
    PLUGBOARD_PLUGIN_DIR: dir,
    PLUGBOARD_DATA_DIR: opts.dataDir ?? tempDir(`${id}-data`),
    PLUGBOARD_NODE_MODULES: path.join(REPO, 'node_modules'),
    ...opts.env,
  });
  for (const [k, v] of Object.entries(env)) if (v === '') delete env[k]; // '' removes a variable
  const [program, ...args] = manifest.command as [string, ...string[]];
  const client = PluginClient.start(program === 'node' ? process.execPath : program, args, { cwd: dir, env, timeoutMs: opts.timeoutMs ?? 8000 });
  clients.push(client);
  await client.initialize();
  return client;
}

/** Stops every plugin started here and removes every temp folder. */
export async function cleanup(): Promise<void> {
  await Promise.all(clients.splice(0).map((c) => c.stop()));
  for (const d of tempDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** The names a plugin announces in initialize, without the passthrough handler. */
export async function announcedTools(client: PluginClient): Promise<string[]> {
  const id = client.request('initialize', { protocol_version: '2.0' });
  const result = (await client.response(id)).result as { commands: Array<{ name: string }> };
  return result.commands.map((c) => c.name).filter((n) => n !== 'on_input');
}

/** The text a turn showed the user: its stream chunks, then its final data when that is text. */
export function shownText(turn: { streams: unknown[]; complete?: { data: unknown } }): string {
  const streamed = turn.streams.map((s) => (typeof s === 'string' ? s : JSON.stringify(s))).join('');
  const data = turn.complete?.data;
  return streamed + (typeof data === 'string' ? data : '');
}
