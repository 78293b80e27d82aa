/**
 * Refusals and warnings a person meets through the real `plugboard` command (issue 18's low items):
 * a `--data-dir` that is a file gets one clear line, not a stack trace; `plugins install` warns
 * about a secret passed in the command line (as the README says); uploads a `plugboard serve`
 * that died left behind are removed by the next one; a zip with an entry twice is refused naming
 * the entry, not with a raw EEXIST.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupFixtures, FIXTURES, REPO, tmpDir } from '../helpers/plugins';
import { plugboard } from '../helpers/cli';
import { writeZip } from '../helpers/zips';

afterAll(() => cleanupFixtures());

describe('a --data-dir that is a file', () => {
  it('is refused in one line that says what to do, for every command that opens it', async () => {
    const file = path.join(tmpDir('cli-datadir-file'), 'not-a-folder');
    writeFileSync(file, 'hello');
    for (const args of [
      ['plugins', 'list'],
      ['plugins', 'grant', 'files', 'fs.read'],
      ['chat', 'hi', '--approve', 'none'],
    ]) {
      const r = await plugboard([...args, '--data-dir', file]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(`the data directory ${file} is a file, not a folder`);
      expect(r.stderr, 'no stack trace').not.toMatch(/\n\s+at /);
    }
    const under = await plugboard(['plugins', 'list', '--data-dir', path.join(file, 'data')]);
    expect(under.code).toBe(1);
    expect(under.stderr).toContain(`${file} is a file, not a folder`);
    expect(under.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('plugins install', () => {
  it('warns about a secret setting passed in the command line', async () => {
    const data = path.join(tmpDir('cli-install-warn'), 'data');
    const r = await plugboard(['plugins', 'install', path.join(FIXTURES, 'hostile', 'leaky-args'), '--data-dir', data]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^warning: .*the secret setting token is passed in the command line: other users of this computer can read it \(ps\)/m,
    );
  });

  it('prints what the scan of its tools noticed, and installs anyway', async () => {
    const data = path.join(tmpDir('cli-install-flags'), 'data');
    const r = await plugboard([
      'plugins',
      'install',
      path.join(FIXTURES, 'hostile', 'poisoned-tools'),
      '--data-dir',
      data,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('flag: get_weather: its name, description or schema hides text');
    expect(r.stderr).toContain('flag: reа⟦U+0430⟧d: its name reads as files:read');
    expect(r.stderr).toContain('flag: list: its name is also a tool of files');
    const json = await plugboard([
      'plugins',
      'install',
      path.join(FIXTURES, 'hostile', 'poisoned-tools'),
      '--replace',
      '--json',
      '--data-dir',
      data,
    ]);
    expect(json.lines[0]).toMatchObject({
      ok: true,
      id: 'poisoned-tools',
      flags: expect.arrayContaining([expect.objectContaining({ tool: 'summarize', kind: 'hidden-text' })]),
    });
  });

  it('refuses a zip holding an entry twice, naming it', async () => {
    const dir = tmpDir('cli-zip-twice');
    const zip = await writeZip(path.join(dir, 'twice.zip'), [
      {
        name: 'plugboard.json',
        data: '{"id":"twice","name":"Twice","version":"1.0.0","protocol":"mcp","command":["node","a.mjs"]}',
      },
      { name: 'a.mjs', data: 'console.log(1)' },
      { name: 'a.mjs', data: 'console.log(2)' },
    ]);
    const data = path.join(dir, 'data');
    const r = await plugboard(['plugins', 'install', zip, '--data-dir', data]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('refused: zip entry "a.mjs" appears twice in twice.zip; a package may hold each file once\n');
    expect(existsSync(path.join(data, 'plugins', 'twice'))).toBe(false);
  });
});

describe('plugboard serve', () => {
  it('removes the uploads a serve that died left in the data folder, and keeps its own there', async () => {
    const root = tmpDir('cli-serve-uploads');
    const data = path.join(root, 'data');
    const left = path.join(data, '.uploads', 'u-deadbeef');
    mkdirSync(left, { recursive: true });
    writeFileSync(path.join(left, 'plugin.zip'), 'left behind by a serve that was killed');
    // The UI need not be built for this: a page of one line stands in for it.
    const ui = path.join(root, 'renderer');
    mkdirSync(ui);
    writeFileSync(path.join(ui, 'index.html'), '<!doctype html><title>Plugboard</title>');
    const child = spawn(process.execPath, [path.join(REPO, 'bin', 'plugboard.mjs'), 'serve', '--data-dir', data], {
      env: { ...process.env, PLUGBOARD_RENDERER_DIR: ui },
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 30_000);
      child.stdout.on('data', (d) => {
        stdout += d;
        if (stdout.includes('Plugboard is running at')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    expect(stderr).toContain('plugboard: removed 1 upload a previous plugboard serve left behind');
    expect(readdirSync(path.join(data, '.uploads'))).toEqual([]);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(path.join(data, '.uploads'))).toBe(false);
  });
});
