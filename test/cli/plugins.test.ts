/**
 * `plugboard plugins …` as a user runs it: installs from a G-Assist folder, a wrapped zip, a flat
 * zip and an .mcpb bundle, each then run by id with `plugboard call <id>`, plus exposure,
 * grants, config, refusals (exit 1 with the reason) and usage errors (exit 2).
 */
import { chmodSync, cpSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plugboard } from '../helpers/cli';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { folderItems, writeZip } from '../helpers/zips';

let data: string;
let src: string;
const pb = (...args: string[]) => plugboard([...args, '--data-dir', data]);

beforeAll(() => {
  const root = tmpDir('cli-plugins');
  data = path.join(root, 'data');
  src = path.join(root, 'src');
  mkdirSync(src);
});
afterAll(cleanupFixtures);

describe('plugboard plugins', () => {
  it('installs a G-Assist folder and calls it by id', async () => {
    const r = await pb('plugins', 'install', path.join(FIXTURES, 'gassist-python'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^installed gassist-python 1\.0\.0 \(folder, \d+ entries, \d+ bytes\)\ngranted: conversation\.read, passthrough\n$/,
    );
    const call = await pb('call', 'gassist-python', 'say_hello', '--args', '{"name":"Ada"}');
    expect([call.code, call.stdout]).toEqual([0, 'Hello, Ada!\n']);
  });

  it('installs a wrapped zip and a flat zip, and calls them by id', async () => {
    const wrapped = await writeZip(
      path.join(src, 'Weather Plugin.zip'),
      folderItems(path.join(FIXTURES, 'gassist-python'), 'weather/'),
    );
    const flat = await writeZip(path.join(src, 'greeter.zip'), folderItems(path.join(FIXTURES, 'gassist-python')));
    expect((await pb('plugins', 'install', wrapped)).code).toBe(0);
    expect((await pb('plugins', 'install', flat)).code).toBe(0);
    expect((await pb('call', 'weather', 'say_hello', '--args', '{"name":"rain"}')).stdout).toBe('Hello, rain!\n');
    expect((await pb('call', 'greeter', 'say_hello')).stdout).toBe('Hello, World!\n');
  });

  it('installs an .mcpb bundle of an MCP server, configures it and calls it by id', async () => {
    const bundle = await writeZip(path.join(src, 'echo.mcpb'), folderItems(path.join(FIXTURES, 'mcpb-echo')));
    const r = await pb('plugins', 'install', bundle, '--json');
    expect(r.code).toBe(0);
    expect(r.lines[0]).toEqual(expect.objectContaining({ ok: true, id: 'mcpb-echo', granted: ['secrets'] }));
    expect((await pb('plugins', 'config', 'mcpb-echo', 'greeting=Ahoy', 'token=s3cret')).code).toBe(0);
    const call = await pb('call', 'mcpb-echo', 'greet', '--args', '{"name":"Ada"}', '--json');
    expect(call.code).toBe(0);
    expect(call.lines.at(-1)).toEqual({ type: 'complete', success: true, data: 'Ahoy, Ada!', keep_session: false });
    expect(readFileSync(path.join(data, 'state.json'), 'utf8')).not.toContain('s3cret');
    expect(statSync(path.join(data, 'secrets.json')).mode & 0o777).toBe(0o600);
  });

  it('lists plugins with their state as JSON', async () => {
    const r = await pb('plugins', 'list', '--json');
    expect(r.code).toBe(0);
    const rows = r.lines[0] as unknown as Array<Record<string, unknown>>;
    const ids = rows.map((x) => x.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'hello',
        'terminal',
        'files',
        'todo',
        'gassist-python',
        'weather',
        'greeter',
        'mcpb-echo',
      ]),
    );
    const mcpb = rows.find((x) => x.id === 'mcpb-echo');
    expect(mcpb).toEqual(
      expect.objectContaining({ source: 'installed', dialect: 'mcp', requested: ['secrets'], granted: ['secrets'] }),
    );
    expect((mcpb?.settings as Array<{ key: string; value: string }>).find((s) => s.key === 'token')?.value).toBe(
      '••••••••',
    );
  });

  it('switches a tool off and on; a call to it is refused with tool_not_exposed', async () => {
    expect((await pb('plugins', 'unexpose', 'greeter:say_hello')).stdout).toBe('greeter:say_hello unexposed\n');
    const call = await pb('call', 'greeter', 'say_hello', '--json');
    expect(call.code).toBe(1);
    expect(call.lines.at(-1)).toEqual(
      expect.objectContaining({
        type: 'error',
        code: 'tool_not_exposed',
        message: 'greeter:say_hello is switched off',
      }),
    );
    expect((await pb('plugins', 'expose', 'greeter:say_hello')).code).toBe(0);
    expect((await pb('call', 'greeter', 'say_hello')).code).toBe(0);
  });

  it('refuses with exit 1 and the reason, on stderr or as JSON', async () => {
    const dup = await pb('plugins', 'install', path.join(FIXTURES, 'gassist-python'));
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/^refused: a plugin "gassist-python" is installed already/);
    const grant = await pb('plugins', 'grant', 'greeter', 'fs.write', '--json');
    expect(grant.code).toBe(1);
    expect(grant.lines[0]).toEqual({
      ok: false,
      code: 'invalid_input',
      error:
        'greeter does not request fs.write (it requests: conversation.read, passthrough; net and folders may be granted to any plugin)',
    });
    const bad = await pb('plugins', 'config', 'mcpb-echo', 'nope=1');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/mcpb-echo has no setting "nope"/);
  });

  it('tries the plugin as the window does, and says when the trial failed, installing it anyway', async () => {
    const broken = path.join(src, 'broken');
    mkdirSync(broken);
    writeFileSync(
      path.join(broken, 'plugboard.json'),
      JSON.stringify({
        id: 'broken',
        name: 'Broken',
        version: '1.0.0',
        protocol: 'mcp',
        command: ['python3', 'start.py'],
      }),
    );
    writeFileSync(
      path.join(broken, 'start.py'),
      'import sys\nsys.stderr.write("ModuleNotFoundError: No module named \'forecast\'\\n")\nsys.exit(1)\n',
    );
    chmodSync(broken, 0o755);
    const r = await pb('plugins', 'install', broken);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^warning: the trial launch failed \(\w+\): .*; installed anyway\n/);
    expect(r.stderr).toContain("No module named 'forecast'");
    expect(r.stdout).toMatch(/^installed broken 1\.0\.0 /);
    const json = await pb('plugins', 'uninstall', 'broken', '--json');
    expect(json.code).toBe(0);
  });

  it('shows what a plugin may consume and where each value comes from; sets yours; goes back to the defaults', async () => {
    const shown = await pb('plugins', 'limits', 'gassist-python');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(
      /^processes {2}1024 {2}\(the default\)\nmemory {5}\d+(\.\d)? [GM]iB {2}\(the default\)\n/,
    );
    const set = await pb('plugins', 'limits', 'gassist-python', 'memory=2G', 'processes=256');
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('gassist-python: limits: memory 2 GiB, process 256\n');
    expect(set.stdout).toContain('processes  256  (yours)\nmemory     2 GiB  (yours)\n');
    // A bad value is refused, naming it.
    const low = await pb('plugins', 'limits', 'gassist-python', 'memory=2M', '--json');
    expect([low.code, low.lines[0]]).toEqual([
      1,
      {
        ok: false,
        code: 'invalid_input',
        error: 'limits.memory: 2M is below the least it may be, 32 MiB',
      },
    ]);
    const back = await pb('plugins', 'limits', 'gassist-python', '--default');
    expect(back.code).toBe(0);
    expect(back.stdout).toContain('processes  1024  (the default)\n');
    expect((await pb('plugins', 'limits', 'gassist-python', 'memory')).code).toBe(2);
    // Five runs of the CLI, each starting Node and opening the data folder: slow on a busy machine.
  }, 90_000);

  it('exits 2 on usage errors', async () => {
    expect((await pb('plugins', 'frobnicate')).code).toBe(2);
    expect((await pb('plugins', 'config', 'x', 'notapair')).code).toBe(2);
    expect((await pb('plugins', 'install')).code).toBe(2);
  });

  it('upgrades with --replace and uninstalls', async () => {
    const copy = path.join(src, 'v2', 'greeter');
    cpSync(path.join(FIXTURES, 'gassist-python'), copy, { recursive: true });
    const up = await pb('plugins', 'install', copy, '--replace');
    expect(up.stdout).toMatch(/^upgraded greeter/);
    const un = await pb('plugins', 'uninstall', 'greeter');
    expect(un.code).toBe(0);
    const call = await pb('call', 'greeter', 'say_hello');
    expect(call.code).toBe(1);
    expect(call.stderr).toMatch(/no installed plugin "greeter", and no plugin folder or manifest at /);
  });
});
