/**
 * A package's install step in the sandbox (installStepPlan and runInstallStep, the installer's
 * of issue 17 item 1): a real `npm install` from the npm registry into the plugin's package
 * folder, with the network and nothing of the person's. A package's own install scripts run
 * there, so it is attacked as a hostile package would: reading the data directory, writing
 * outside its folder, and, as a plugin is held (issue 18), reading /etc/shadow and the host's
 * keyrings under root, forking without end and filling its /tmp. Each attack fails, and the step
 * says which limit stopped it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runInstallStep, type StepResult } from '../../src/main/host/process/install-step';
import { searchPath } from '../../src/main/host/process/resolve';
import { installStepPlan } from '../../src/main/host/process/sandbox-install';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';
import { describeSandboxed, support } from '../helpers/sandbox';

let data: string;
let plugin: string;
let work: string;
let outside: string;

const asRoot = process.getuid?.() === 0;

/** Runs one command as the installer does: planned for the staged plugin, its package folder writable. */
async function step(command: string[], limits?: Record<string, number>, timeoutMs = 60_000): Promise<StepResult> {
  const file = searchPath(command[0] as string, process.env.PATH ?? '');
  if (!file) throw new Error(`${command[0]} is not on PATH`);
  const home = path.join(work, 'home');
  mkdirSync(home, { recursive: true });
  const plan = installStepPlan({
    file,
    args: command.slice(1),
    cwd: work,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
    pluginDir: plugin,
    writable: work,
    home,
    hiddenRoot: data,
    tools: [file],
    ...(limits ? { limits } : {}),
  });
  expect(plan.sandbox).toEqual({ active: true });
  const lines: string[] = [];
  const r = await runInstallStep(plan, { timeoutMs, onLine: (l) => lines.push(l) });
  return { ...r, tail: lines.length > r.tail.length ? lines : r.tail };
}

describeSandboxed('the install step', () => {
  beforeAll(() => {
    const root = tmpDir('install-step');
    data = path.join(root, 'data');
    plugin = path.join(data, '.staging', 'pkg');
    work = path.join(plugin, '.plugboard');
    outside = path.join(root, 'outside');
    mkdirSync(work, { recursive: true });
    mkdirSync(outside, { mode: 0o777 });
    writeFileSync(path.join(data, 'secrets.json'), '{"other":{"token":"SECRET-VALUE"}}');
    writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'pkg', version: '1.0.0', private: true }));
  });
  afterAll(async () => {
    expect(await leftovers()).toEqual([]);
    cleanupFixtures();
  });

  it('installs an npm package into the plugin’s package folder, over the network, with no cache left in it', async () => {
    const r = await step(['npm', 'install', '--no-audit', '--no-fund', 'is-number@7.0.0'], undefined, 120_000);
    expect(r.ok, r.tail.join('\n')).toBe(true);
    expect(JSON.parse(readFileSync(path.join(work, 'node_modules', 'is-number', 'package.json'), 'utf8')).version).toBe(
      '7.0.0',
    );
    expect(r.tail.join('\n')).toMatch(/added 1 package/);
    expect(existsSync(path.join(work, '.npm'))).toBe(false);
  }, 150_000);

  it('sees nothing of the data directory and writes nowhere but the plugin’s package folder', async () => {
    const r = await step([
      'sh',
      '-c',
      `cat ${data}/secrets.json; touch ${outside}/planted; touch ${plugin}/beside; touch ${work}/made-here; echo done`,
    ]);
    expect(r.tail).toContain('done');
    expect(r.tail.join('\n')).not.toContain('SECRET-VALUE');
    expect(existsSync(path.join(outside, 'planted'))).toBe(false);
    expect(existsSync(path.join(plugin, 'beside'))).toBe(false);
    expect(existsSync(path.join(work, 'made-here'))).toBe(true);
  });

  it('under root runs as the plugins’ user: /etc/shadow, the keyrings and /proc/sys stay out of reach', async (ctx) => {
    if (!asRoot || !support.available || !support.root?.setpriv)
      return ctx.skip('Plugboard does not run as root here (or has no setpriv): the step runs as the person already');
    const r = await step([
      'sh',
      '-c',
      // One stream, so that the lines keep their order (stdout and stderr are two pipes).
      'exec 2>&1; id -u; cat /etc/shadow && echo READ-SHADOW; cat /proc/keys; echo x > /proc/sys/kernel/core_pattern && echo WROTE-SYS; echo end',
    ]);
    const out = r.tail.join('\n');
    expect(r.tail[0]).toBe(String(support.root.uid));
    expect(out).not.toContain('READ-SHADOW');
    expect(out).not.toMatch(/keyring/);
    expect(out).not.toContain('WROTE-SYS');
    expect(r.tail.at(-1)).toBe('end');
  });

  it('stops a fork bomb at its process limit, naming it, with nothing left running', async () => {
    const r = await step(['sh', '-c', 'i=0; while [ $i -lt 300 ]; do sleep 30 & i=$((i+1)); done; wait'], {
      processes: 32,
    });
    expect(r.ok).toBe(false);
    expect(r.breach ?? r.tail.join('\n')).toMatch(/process limit of 32|Resource temporarily unavailable|fork/i);
    expect(await leftovers()).toEqual([]);
  });

  it('keeps its /tmp to its size: filling it fails there', async () => {
    const r = await step(['sh', '-c', 'head -c 33554432 /dev/zero > /tmp/fill && echo FILLED; echo end'], {
      tmpBytes: 16 * 1024 * 1024,
    });
    expect(r.tail.join('\n')).not.toContain('FILLED');
    expect(r.tail.join('\n')).toMatch(/No space left|File too large/);
  });

  it('fails with the command’s last lines when it fails', async () => {
    const r = await step(['sh', '-c', 'echo "no such package" >&2; exit 3']);
    // (One line on one stream: its order cannot vary.)
    expect(r).toMatchObject({ ok: false, code: 3, tail: ['no such package'] });
  });
});
