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
import { wrapInSandbox } from '../src/main/host/process/sandbox.js';
import { appReadOnlyFolders, sandboxPolicy } from '../src/main/host/process/sandbox-prepare.js';
import { sandboxSupport } from '../src/main/host/process/sandbox-probe.js';
import type { SettingSpec } from '../src/shared/plugin.js';

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
  settings?: Record<string, { env?: string; type?: string }>;
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

const PARENT_ALLOW = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'SYSTEMROOT',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'TEMP',
  'TMP',
];

/** Starts a bundled plugin and completes its handshake. */
export async function startPlugin(id: string, opts: StartOptions = {}): Promise<PluginClient> {
  if (!existsSync(SDK_DIST))
    throw new Error(`${SDK_DIST} is missing: build the SDK first (npx tsc -p sdk/node/tsconfig.json)`);
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
  const run = sandboxed(manifest, {
    file: program === 'node' ? process.execPath : program,
    args,
    cwd: dir,
    env: env as Record<string, string>,
  });
  const client = PluginClient.start(run.file, run.args, {
    cwd: run.cwd,
    env: run.env,
    timeoutMs: opts.timeoutMs ?? 8000,
  });
  clients.push(client);
  await client.initialize();
  return client;
}

/**
 * With PLUGBOARD_TEST_SANDBOX=1 the plugins run in the sandbox the app gives them (bubblewrap,
 * src/main/host/process/sandbox.ts), granted what they request, with their directory settings
 * as the granted folders and their PLUGBOARD_DATA_DIR as their own; otherwise as they are.
 */
function sandboxed(
  manifest: Manifest,
  run: { file: string; args: string[]; cwd: string; env: Record<string, string> },
): typeof run {
  if (process.env.PLUGBOARD_TEST_SANDBOX !== '1') return run;
  const support = sandboxSupport();
  if (!support.available)
    throw new Error(`PLUGBOARD_TEST_SANDBOX=1, but the sandbox does not work here: ${support.reason}`);
  const dataDir = run.env.PLUGBOARD_DATA_DIR as string;
  const settings: SettingSpec[] = [];
  const values: Record<string, string[]> = {};
  for (const [key, s] of Object.entries(manifest.settings ?? {})) {
    if ((s.type === 'directory' || s.type === 'file') && s.env && run.env[s.env]) {
      settings.push({
        key,
        type: s.type,
        title: key,
        description: '',
        required: false,
        sensitive: false,
        multiple: true,
      });
      values[key] = (run.env[s.env] as string).split(path.delimiter);
    }
  }
  const plan = { ok: true as const, ...run, displayCommand: [run.file, ...run.args], pathSearched: run.env.PATH ?? '' };
  const prepared = sandboxPolicy(plan, {
    support,
    pluginDir: path.resolve(run.cwd),
    settings,
    values,
    home: os.homedir(),
    pathEnv: process.env.PATH ?? '/usr/bin:/bin',
    toolchain: { home: os.homedir(), env: process.env, projectDir: path.resolve(run.cwd) },
    // These tests have no Plugboard data directory to hide.
    request: {
      grants: manifest.capabilities ?? [],
      dataDir,
      hiddenRoot: path.join(os.tmpdir(), 'plugboard-tests-hide-nothing'),
      extraReadOnly: appReadOnlyFolders({ bundledDir: PLUGINS_DIR, nodeModules: path.join(REPO, 'node_modules') }),
    },
  });
  if (!prepared.ok) throw new Error(prepared.message);
  const wrapped = wrapInSandbox(prepared.plan, prepared.policy);
  return { file: wrapped.file, args: wrapped.args, cwd: wrapped.cwd, env: wrapped.env };
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
