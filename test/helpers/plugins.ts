/**
 * Test plugins: copies a fixture script from test/fixtures/lib into a fresh folder with a
 * plugboard.json of the test's choosing. Folders live under test/.tmp so Node module resolution
 * still finds the repository's node_modules.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = path.join(REPO, 'test', 'fixtures');
const TMP = path.join(REPO, 'test', '.tmp');

export type FixtureScript = 'gassist' | 'jsonrpc' | 'rterm';

export interface FixtureOptions {
  script: FixtureScript;
  id?: string;
  mode?: string;
  env?: Record<string, string>;
  /** Extra plugboard.json fields (functions, timeouts, framing, init, rpc_flavor, capabilities…). */
  manifest?: Record<string, unknown>;
}

const PROTOCOL: Record<FixtureScript, string> = { gassist: 'gassist-v2', jsonrpc: 'jsonrpc', rterm: 'rterm-v1' };

const made: string[] = [];

export function tmpDir(prefix = 'case'): string {
  mkdirSync(TMP, { recursive: true });
  const dir = mkdtempSync(path.join(TMP, `${prefix}-`));
  // mkdtemp makes it 0700; a person's folders are usually readable by all, and under root the
  // sandbox runs plugins as nobody, who must be able to read the plugin's folder (as for a person's).
  chmodSync(dir, 0o755);
  made.push(dir);
  return dir;
}

export function fixturePlugin(opts: FixtureOptions): string {
  const id = opts.id ?? `${opts.script}-fixture`;
  const dir = tmpDir(id);
  cpSync(path.join(FIXTURES, 'lib', `${opts.script}.mjs`), path.join(dir, 'plugin.mjs'));
  const env: Record<string, string> = { ...(opts.env ?? {}) };
  if (opts.mode) env.FIXTURE_MODE = opts.mode;
  if (opts.script === 'rterm') env.PLUGIN_ID ??= id;
  const manifest = {
    id,
    name: id,
    version: '1.0.0',
    protocol: PROTOCOL[opts.script],
    command: ['node', 'plugin.mjs'],
    env,
    ...(opts.manifest ?? {}),
  };
  writeFileSync(path.join(dir, 'plugboard.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

/**
 * A G-Assist plugin that writes down every message and signal it gets, one line per event
 * prefixed with its pid (test/fixtures/lib/gassist-recorder.mjs).
 */
export function recorderPlugin(
  id: string,
  env: Record<string, string>,
  timeouts: Record<string, unknown> = {},
): { dir: string; record: string } {
  const dir = tmpDir(id);
  const record = path.join(dir, 'record.log');
  cpSync(path.join(FIXTURES, 'lib', 'gassist-recorder.mjs'), path.join(dir, 'plugin.mjs'));
  const manifest = {
    id,
    name: id,
    version: '1.0.0',
    protocol: 'gassist-v2',
    command: ['node', 'plugin.mjs'],
    env: { ...env, RECORD_FILE: record },
    timeouts,
  };
  writeFileSync(path.join(dir, 'plugboard.json'), JSON.stringify(manifest));
  return { dir, record };
}

/** What one process of a recorder plugin wrote down, in order. */
export function recorded(file: string, pid: number): string[] {
  if (!existsSync(file)) return [];
  const prefix = `${pid} `;
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith(prefix))
    .map((l) => l.slice(prefix.length));
}

export function cleanupFixtures(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}
