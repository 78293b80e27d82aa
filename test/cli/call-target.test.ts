/**
 * What `plugboard call <plugin>` runs: an installed plugin by its id even where the working
 * directory has a folder of that name, a folder when written as a path (./NAME) or when no plugin
 * has that id; and a plugin run from a path runs in the sandbox it gets once installed, as
 * `plugboard check` runs it. The real CLI process, real fixtures, a real data directory.
 */
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { plugboard } from '../helpers/cli';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { describeSandboxed } from '../helpers/sandbox';

afterAll(cleanupFixtures);

describe('plugboard call <plugin>', () => {
  it('takes a bare NAME as the installed plugin even when a folder NAME is here; ./NAME is the folder', async () => {
    const data = path.join(tmpDir('call-target'), 'data');
    expect((await plugboard(['plugins', 'install', path.join(FIXTURES, 'mcpb-echo'), '--data-dir', data])).code).toBe(
      0,
    );
    // A folder named like the installed plugin, holding another plugin (G-Assist, say_hello only).
    const here = tmpDir('call-target-cwd');
    cpSync(path.join(FIXTURES, 'gassist-python'), path.join(here, 'mcpb-echo'), { recursive: true });
    cpSync(path.join(FIXTURES, 'gassist-python'), path.join(here, 'just-a-folder'), { recursive: true });

    const installed = await plugboard(['call', 'mcpb-echo', 'greet', '--args', '{"name":"Ada"}', '--data-dir', data], {
      cwd: here,
    });
    expect([installed.code, installed.stdout, installed.stderr]).toEqual([0, 'Hello, Ada!\n', '']);
    const folder = await plugboard(
      ['call', './mcpb-echo', 'say_hello', '--args', '{"name":"Ada"}', '--data-dir', data],
      { cwd: here },
    );
    expect([folder.code, folder.stdout]).toEqual([0, 'Hello, Ada!\n']);
    // The installed plugin has no say_hello: called by its bare name, the folder is not used.
    const notFolder = await plugboard(['call', 'mcpb-echo', 'say_hello', '--data-dir', data], { cwd: here });
    expect(notFolder.code).toBe(1);
    // No plugin has this id: the folder of that name is what was meant.
    const fallback = await plugboard(
      ['call', 'just-a-folder', 'say_hello', '--args', '{"name":"Bo"}', '--data-dir', data],
      { cwd: here },
    );
    expect([fallback.code, fallback.stdout]).toEqual([0, 'Hello, Bo!\n']);
    const neither = await plugboard(['call', 'nothing-here', 'f', '--data-dir', data], { cwd: here });
    expect(neither.code).toBe(1);
    expect(neither.stderr).toMatch(
      /no installed plugin "nothing-here", and no plugin folder or manifest at .*nothing-here \(installed and bundled: .*mcpb-echo/,
    );
  });

  it('check takes a bare NAME the same way', async () => {
    const data = path.join(tmpDir('check-target'), 'data');
    expect((await plugboard(['plugins', 'install', path.join(FIXTURES, 'mcpb-echo'), '--data-dir', data])).code).toBe(
      0,
    );
    const here = tmpDir('check-target-cwd');
    mkdirSync(path.join(here, 'mcpb-echo'));
    // The empty folder here would fail the manifest check; the installed plugin passes.
    const r = await plugboard(['check', 'mcpb-echo', '--json', '--data-dir', data], { cwd: here });
    expect([r.code, (r.lines[0] as { ok: boolean }).ok]).toEqual([0, true]);
    const folder = await plugboard(['check', './mcpb-echo', '--json', '--data-dir', data], { cwd: here });
    expect(folder.code).toBe(1);
  });
});

describeSandboxed('a plugin run from a path, sandboxed as check runs it', () => {
  it('runs in the sandbox: a plugin that reaches outside its folder fails, and the failure says why and how to run it as it is', async () => {
    const data = path.join(tmpDir('call-sandbox'), 'data');
    // rterm-echo imports ../lib, outside its folder: visible as it is, not in the sandbox.
    const r = await plugboard([
      'call',
      path.join(FIXTURES, 'rterm-echo'),
      'upper',
      '--args',
      '{"text":"q"}',
      '--json',
      '--data-dir',
      data,
    ]);
    expect(r.code).toBe(1);
    const last = r.lines.at(-1) as { type: string; message: string; details?: { command?: string[] } };
    expect(last.type).toBe('error');
    expect(last.details?.command?.[0]).toBe('bwrap');
    expect(last.message).toMatch(/ran in the sandbox it gets once installed.*--no-sandbox runs it as it is/);
    const check = await plugboard(['check', path.join(FIXTURES, 'rterm-echo'), '--json', '--data-dir', data]);
    expect([check.code, (check.lines[0] as { ok: boolean }).ok]).toEqual([1, false]);

    const plain = await plugboard([
      'call',
      path.join(FIXTURES, 'rterm-echo'),
      'upper',
      '--args',
      '{"text":"q"}',
      '--no-sandbox',
      '--data-dir',
      data,
    ]);
    expect([plain.code, plain.stdout]).toEqual([0, 'Q\n']);
    // A self-contained plugin runs the same in the sandbox.
    const mcp = await plugboard([
      'call',
      path.join(FIXTURES, 'mcpb-echo'),
      'greet',
      '--args',
      '{"name":"Ada"}',
      '--data-dir',
      data,
    ]);
    expect([mcp.code, mcp.stdout]).toEqual([0, 'Hello, Ada!\n']);
  });
});
