/**
 * A package's install step in the sandbox (runInstallStep, for the installer of issue 17 item 1):
 * a real `npm install` from the npm registry into the plugin's folder, with the network and
 * nothing of the person's: the folder is written, caches stay out of it, the data directory is out
 * of sight, nothing else can be written; a failing command fails with its last lines.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runInstallStep } from '../../src/main/host/process/install-step';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { describeSandboxed } from '../helpers/sandbox';

let data: string;
let dir: string;
let outside: string;

describeSandboxed('the install step', () => {
  beforeAll(() => {
    const root = tmpDir('install-step');
    data = path.join(root, 'data');
    dir = path.join(data, '.staging', 'pkg');
    outside = path.join(root, 'outside');
    mkdirSync(dir, { recursive: true });
    mkdirSync(outside, { mode: 0o777 });
    writeFileSync(path.join(data, 'secrets.json'), '{"other":{"token":"SECRET-VALUE"}}');
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'pkg', version: '1.0.0', private: true }));
  });
  afterAll(() => cleanupFixtures());

  it('installs an npm package into the plugin’s folder, over the network, with no cache left in it', async () => {
    const lines: string[] = [];
    const r = await runInstallStep({
      command: ['npm', 'install', '--no-audit', '--no-fund', 'is-number@7.0.0'],
      dir,
      hiddenRoot: data,
      onLine: (l) => lines.push(l),
      timeoutMs: 120_000,
    });
    if (!r.ok) throw new Error(`${r.message}\n${(r.details?.stderrTail ?? []).join('\n')}`);
    expect(r.command[0]).toMatch(/\/npm$/);
    expect(JSON.parse(readFileSync(path.join(dir, 'node_modules', 'is-number', 'package.json'), 'utf8')).version).toBe(
      '7.0.0',
    );
    expect(lines.join('\n')).toMatch(/added 1 package/);
    expect(existsSync(path.join(dir, '.npm'))).toBe(false);
  }, 150_000);

  it('sees nothing of the data directory and writes nowhere but the plugin’s folder', async () => {
    const r = await runInstallStep({
      command: ['sh', '-c', `cat ${data}/secrets.json; touch ${outside}/planted; touch ${dir}/made-here; echo done`],
      dir,
      hiddenRoot: data,
    });
    if (!r.ok) throw new Error(r.message);
    expect(r.tail.join('\n')).not.toContain('SECRET-VALUE');
    expect(existsSync(path.join(outside, 'planted'))).toBe(false);
    expect(existsSync(path.join(dir, 'made-here'))).toBe(true);
  });

  it('fails with the command’s last lines when it fails', async () => {
    const r = await runInstallStep({
      command: ['sh', '-c', 'echo "no such package" >&2; exit 3'],
      dir,
      hiddenRoot: data,
    });
    expect(r).toMatchObject({
      ok: false,
      code: 'install_refused',
      message: expect.stringMatching(/failed \(exit code 3\)$/),
      details: { stderrTail: ['no such package'] },
    });
  });
});
