/**
 * The CLI's side of grants and of `check` on what is installed, through the real command: paths a
 * plugin is given are granted at install and listed; a folder or the network is granted to any
 * plugin with `plugins grant`; `check <id>` runs an installed plugin with its own data folder
 * (what its earlier runs left is there, and stays); `call --set` of a setting the plugin does not
 * declare is an error, not ignored.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plugboard } from '../helpers/cli';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';

let root: string;
let data: string;

beforeAll(() => {
  root = tmpDir('grants-cli');
  data = path.join(root, 'data');
});
afterAll(cleanupFixtures);

describe('grants and check from the command line', () => {
  it('offers at install the folders a plugin’s manifest names, grants those picked, lists them, and grants a folder or the network to any plugin', async () => {
    const notes = path.join(root, 'notes');
    mkdirSync(notes);
    const plugin = path.join(root, 'src', 'fetcher');
    cpSync(path.join(FIXTURES, 'gassist-fetch'), plugin, { recursive: true });
    // A plugboard.json of the same plugin that is given a folder in its arguments.
    writeFileSync(
      path.join(plugin, 'plugboard.json'),
      JSON.stringify({ id: 'fetcher', protocol: 'gassist-v2', command: ['node', 'plugin.mjs', notes] }),
    );
    const install = await plugboard(['plugins', 'install', plugin, '--data-dir', data]);
    expect(install.code).toBe(0);
    // Its manifest names the folder: its author's choice, offered, granted only when picked.
    const offered = install.stdout.split('\n').find((l) => l.startsWith('named by its manifest, not granted: '));
    expect(offered).toContain(`${notes} (argument 2`);
    expect(offered).toMatch(new RegExp(`: --folder ${notes} grants it$`));
    expect(install.stdout).not.toContain('granted read-write');
    expect((await plugboard(['plugins', 'uninstall', 'fetcher', '--data-dir', data])).code).toBe(0);
    const picked = await plugboard(['plugins', 'install', plugin, '--folder', notes, '--data-dir', data]);
    expect(picked.code).toBe(0);
    expect(picked.stdout).toContain(`granted read-write: ${notes}\n`);

    // The same plugin again, beside the first under another id (the study's .mcpb named like an
    // imported server): its own folder, grants and data; the first is untouched.
    const beside = await plugboard(['plugins', 'install', plugin, '--id', 'fetcher-2', '--data-dir', data]);
    expect(beside.code, beside.stderr).toBe(0);
    expect(beside.stdout).toContain('installed fetcher-2 0.0.0');
    expect((await plugboard(['plugins', 'uninstall', 'fetcher-2', '--data-dir', data])).code).toBe(0);

    const extra = path.join(root, 'reference');
    mkdirSync(extra);
    const g = await plugboard(['plugins', 'grant', 'fetcher', 'net', '--folder', `${extra}:ro`, '--data-dir', data]);
    expect([g.code, g.stdout]).toEqual([0, `granted net, ${extra} (read-only)\n`]);
    const list = await plugboard(['plugins', 'list', '--data-dir', data]);
    expect(list.stdout).toContain('    granted, not requested: net\n');
    expect(list.stdout).toContain(`    folder: ${notes} (read-write)\n    folder: ${extra} (read-only)\n`);
    const r = await plugboard(['plugins', 'revoke', 'fetcher', '--folder', notes, '--data-dir', data, '--json']);
    expect(r.lines[0]).toEqual({ ok: true, detail: `revoked ${notes}` });
    expect(JSON.parse(readFileSync(path.join(data, 'state.json'), 'utf8')).plugins.fetcher.folders).toEqual([
      { path: extra, write: false },
    ]);
  }, 120_000);

  it('checks an installed plugin with its own data folder, which keeps what its runs left', async () => {
    const first = await plugboard(['check', 'fetcher', '--data-dir', data]);
    expect(first.code).toBe(0);
    const second = await plugboard(['check', 'fetcher', '--data-dir', data]);
    expect(second.code).toBe(0);
    const starts = readFileSync(path.join(data, 'plugin-data', 'fetcher', 'starts.log'), 'utf8')
      .trim()
      .split('\n');
    expect(starts).toHaveLength(2);
  }, 120_000);

  it('refuses --set of a setting the plugin does not declare, and --set on an installed plugin', async () => {
    const folder = await plugboard(['call', path.join(FIXTURES, 'mcpb-echo'), 'greet', '--set', 'colour=red']);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toMatch(/^invalid_input: --set mcpb-echo has no setting "colour" \(it has: greeting, token/);
    const installed = await plugboard(['call', 'fetcher', 'fetch_status', '--set', 'x=1', '--data-dir', data]);
    expect(installed.code).toBe(1);
    expect(installed.stderr).toMatch(/--set is for a plugin run from a folder; fetcher is installed/);
  }, 60_000);
});
