import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/main/plugins/manifests';
import { allowedParentEnv } from '../../src/main/host/process/env';
import { planLaunch } from '../../src/main/host/process/launch';
import type { PluginSpec } from '../../src/shared/plugin';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';

afterAll(cleanupFixtures);

function spec(dir: string, command: string[], extra: Partial<PluginSpec> = {}): PluginSpec {
  writeFileSync(path.join(dir, 'plugboard.json'), JSON.stringify({ id: 'p', protocol: 'jsonrpc', command }));
  const r = loadManifest(dir);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return { ...r.spec, ...extra };
}

const parentEnv = {
  PATH: process.env.PATH ?? '',
  HOME: '/home/ada',
  LANG: 'C.UTF-8',
  LC_ALL: 'C',
  AWS_SECRET_ACCESS_KEY: 'leak',
  OPENAI_API_KEY: 'leak',
  TMPDIR: '/tmp',
};

describe('plugin environment', () => {
  it('passes only allow-listed parent variables', () => {
    expect(allowedParentEnv(parentEnv, 'linux')).toEqual({
      PATH: parentEnv.PATH,
      HOME: '/home/ada',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      TMPDIR: '/tmp',
    });
  });

  it('adds manifest env, settings, PYTHONUNBUFFERED and libs/ on PYTHONPATH for Python', () => {
    const plan = planLaunch({
      spec: loadManifestOk(path.join(FIXTURES, 'mehrhof-provider')),
      parentEnv,
      settings: { FIXTURE_PREFIX: 'Ticket' },
    });
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.env.FIXTURE_PREFIX).toBe('Ticket');
    expect(plan.env.PYTHONUNBUFFERED).toBe('1');
    expect(plan.env.PYTHONPATH).toBe(path.join(FIXTURES, 'mehrhof-provider', 'libs'));
    expect(plan.env.OPENAI_API_KEY).toBeUndefined();
    expect(plan.env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(plan.cwd).toBe(path.join(FIXTURES, 'mehrhof-provider'));
  });

  it('substitutes MCPB placeholders at launch', () => {
    const plan = planLaunch({
      spec: loadManifestOk(path.join(FIXTURES, 'mcpb-echo')),
      parentEnv,
      settings: { greeting: 'Ahoy', token: 's3cret' },
    });
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.args).toEqual([path.join(FIXTURES, 'mcpb-echo', 'server', 'index.mjs'), '--greeting', 'Ahoy']);
    expect(plan.env.ECHO_HOME).toBe('/home/ada');
    expect(plan.env.ECHO_TOKEN).toBe('s3cret');
  });

  it('names required settings that are missing before anything starts', () => {
    const s = loadManifestOk(path.join(FIXTURES, 'mcpb-echo'));
    s.settings = s.settings.map((x) => ({ ...x, required: true, default: undefined }) as typeof x);
    const plan = planLaunch({ spec: s, parentEnv });
    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.message).toMatch(
      /required settings are not set: greeting \(Greeting\), token \(API token\)/,
    );
  });
});

describe('command resolution', () => {
  it('finds interpreters on PATH and resolves scripts inside the plugin folder', () => {
    const dir = tmpDir('res');
    writeFileSync(path.join(dir, 'run.py'), 'print(1)\n');
    const plan = planLaunch({ spec: spec(dir, ['python3', './run.py']), parentEnv });
    if (!plan.ok) throw new Error(plan.message);
    expect(path.isAbsolute(plan.file)).toBe(true);
    expect(plan.args).toEqual([path.join(dir, 'run.py')]);
  });

  it('runs a .py executable with Python and a .js one with Node', () => {
    const dir = tmpDir('res2');
    writeFileSync(path.join(dir, 'plugin.py'), '');
    writeFileSync(path.join(dir, 'plugin.js'), '');
    const py = planLaunch({ spec: spec(dir, ['plugin.py']), parentEnv });
    if (!py.ok) throw new Error(py.message);
    expect(path.basename(py.file)).toMatch(/^python3?$/);
    expect(py.args).toEqual([path.join(dir, 'plugin.py')]);
    expect(py.env.PYTHONUNBUFFERED).toBe('1');
    const js = planLaunch({ spec: spec(dir, ['plugin.js']), parentEnv });
    if (!js.ok) throw new Error(js.message);
    expect(path.basename(js.file)).toBe('node');
    expect(js.args).toEqual([path.join(dir, 'plugin.js')]);
    expect(js.env.PYTHONUNBUFFERED).toBeUndefined();
  });

  it('names the command, the PATH searched and the working directory when an interpreter is missing', () => {
    const dir = tmpDir('res3');
    writeFileSync(path.join(dir, 'plugin.py'), '');
    const plan = planLaunch({ spec: spec(dir, ['plugin.py']), parentEnv: { ...parentEnv, PATH: '/nonexistent/bin' } });
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.code).toBe('launch_failed');
    expect(plan.message).toMatch(/no Python interpreter \(python3 or python\) was found on PATH/);
    expect(plan.details).toEqual(
      expect.objectContaining({ pathSearched: '/nonexistent/bin', cwd: dir, command: ['plugin.py'] }),
    );
  });

  it('refuses a program that is not on PATH, one that is not executable, and scripts outside the folder', () => {
    const dir = tmpDir('res4');
    writeFileSync(path.join(dir, 'tool.sh'), '#!/bin/sh\n');
    chmodSync(path.join(dir, 'tool.sh'), 0o644);
    mkdirSync(path.join(dir, 'sub'));
    symlinkSync('/etc/hostname', path.join(dir, 'sub', 'link.py'));
    const msg = (command: string[]): string => {
      const p = planLaunch({ spec: spec(dir, command), parentEnv });
      return p.ok ? 'ok' : p.message;
    };
    expect(msg(['no-such-program-xyz'])).toBe('"no-such-program-xyz" was not found on PATH');
    expect(msg(['./tool.sh'])).toBe('"./tool.sh" is not executable (mode 0644); run chmod +x on it');
    expect(msg(['python3', '../../escape.py'])).toMatch(/^script "..\/..\/escape.py" does not exist/);
    expect(msg(['python3', 'sub/link.py'])).toMatch(
      /^script "sub\/link.py" resolves to \/etc\/hostname, outside the plugin folder/,
    );
    expect(msg(['node', '-e', 'console.log(1)'])).toBe('ok');
  });
});

function loadManifestOk(dir: string): PluginSpec {
  const r = loadManifest(dir);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.spec;
}
