/**
 * The sandbox's rules where they are easy to get wrong: a granted folder that holds the data
 * directory (directly or through a symlink), a grant inside it, the whole file system granted;
 * the environment bwrap starts with; what the probe says when the sandbox cannot work; and the
 * folders shown for grants and interpreters. Behaviour is checked in real bwrap sandboxes.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { planLaunch, type LaunchPlan } from '../../src/main/host/process/launch';
import { wrapInSandbox, type SandboxPolicy } from '../../src/main/host/process/sandbox';
import { installRoot, interpreterFacts } from '../../src/main/host/process/sandbox-interpreter';
import { grantedFolders, systemEntries } from '../../src/main/host/process/sandbox-prepare';
import { probeSandbox } from '../../src/main/host/process/sandbox-probe';
import type { SettingSpec } from '../../src/shared/plugin';
import { specOf } from '../helpers/calls';
import { FIXTURES, tmpDir } from '../helpers/plugins';
import { bwrapPath, describeSandboxed } from '../helpers/sandbox';

let root: string;
let data: string;
let own: string;
let pluginDir: string;

function shPlan(script: string): LaunchPlan {
  return {
    ok: true,
    file: '/bin/sh',
    args: ['-c', script],
    cwd: pluginDir,
    env: { PATH: '/usr/bin:/bin', KEEP: 'kept' },
    displayCommand: ['/bin/sh', '-c', '…'],
    pathSearched: '',
  };
}

function policy(extra: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return {
    bwrap: '/usr/bin/bwrap',
    pluginDir,
    dataDir: own,
    hiddenRoot: data,
    readPaths: [],
    writePaths: [],
    net: false,
    extraReadOnly: [],
    system: systemEntries(),
    realPath: (p) => realpathSync(p),
    ...extra,
  };
}

/** Runs a shell script in a real sandbox; its output, stderr included. */
function runIn(extra: Partial<SandboxPolicy>, script: string): string {
  const plan = wrapInSandbox(shPlan(script), policy({ bwrap: bwrapPath(), ...extra }));
  const r = spawnSync(plan.file, plan.args, { cwd: plan.cwd, env: plan.env, encoding: 'utf8', timeout: 15_000 });
  return `${r.stdout}${r.stderr}`;
}

beforeAll(() => {
  root = realpathSync(tmpDir('sandbox-policy'));
  data = path.join(root, 'data');
  own = path.join(data, 'plugin-data', 'p');
  pluginDir = path.join(root, 'plugin');
  mkdirSync(own, { recursive: true });
  mkdirSync(pluginDir);
  mkdirSync(path.join(data, 'plugins', 'other'), { recursive: true });
  mkdirSync(path.join(root, 'folder'));
  writeFileSync(path.join(data, 'secrets.json'), '{"other":{"token":"SECRET-VALUE"}}');
  writeFileSync(path.join(data, 'plugins', 'other', 'code.js'), 'OTHER-CODE');
  writeFileSync(path.join(root, 'folder', 'a.txt'), 'FOLDER-CONTENT');
  symlinkSync(root, path.join(root, 'alias'));
});

describeSandboxed('what a sandboxed plugin sees', () => {
  it('a granted folder holding the data directory shows all of it but the data directory', () => {
    const out = runIn(
      { writePaths: [root] },
      `cat ${root}/folder/a.txt ${data}/secrets.json; ls -A ${data}; echo x > ${data}/planted || echo refused`,
    );
    expect(out).toContain('FOLDER-CONTENT');
    expect(out).not.toContain('SECRET-VALUE');
    expect(out).toContain('refused');
  });

  it('the same through a symlink to it', () => {
    const out = runIn(
      { readPaths: [path.join(root, 'alias')] },
      `cat ${root}/alias/folder/a.txt ${root}/alias/data/secrets.json ${root}/alias/data/plugins/other/code.js`,
    );
    expect(out).toContain('FOLDER-CONTENT');
    expect(out).not.toContain('SECRET-VALUE');
    expect(out).not.toContain('OTHER-CODE');
  });

  it('a folder granted both read-only and read-write is written (a setting and a grant of the same folder)', () => {
    const folder = path.join(root, 'folder');
    const out = runIn(
      { readPaths: [folder], writePaths: [folder] },
      `echo written > ${folder}/both.txt && cat ${folder}/both.txt || echo refused`,
    );
    expect(out).toContain('written');
    expect(out).not.toContain('refused');
  });

  it('a grant inside the data directory (another plugin’s folder) is not honoured', () => {
    const out = runIn({ readPaths: [path.join(data, 'plugins', 'other')] }, `cat ${data}/plugins/other/code.js`);
    expect(out).not.toContain('OTHER-CODE');
  });

  it('with the whole file system granted: still a private /proc, the data directory hidden, its own folder read-only', () => {
    const out = runIn(
      { writePaths: ['/'] },
      `ls /proc | grep -c '^[0-9]'; cat ${data}/secrets.json; touch ${pluginDir}/x || echo plugin-folder-refused; touch ${own}/x && echo own-ok`,
    );
    expect(Number(out.split('\n')[0])).toBeLessThan(10);
    expect(out).not.toContain('SECRET-VALUE');
    expect(out).toContain('plugin-folder-refused');
    expect(out).toContain('own-ok');
  });
});

describe('the wrapped plan', () => {
  it('keeps the plugin’s environment, with HOME in its own data folder and TMPDIR in its private /tmp', () => {
    const plan = wrapInSandbox(shPlan('true'), policy());
    expect(plan.env).toEqual({ PATH: '/usr/bin:/bin', KEEP: 'kept', HOME: own, TMPDIR: '/tmp' });
    expect(plan.file).toBe('/usr/bin/bwrap');
    expect(plan.args.slice(plan.args.indexOf('--'))).toEqual(['--', '/bin/sh', '-c', 'true']);
    expect(plan.displayCommand).toEqual(['bwrap', '[sandbox: no network]', '--', '/bin/sh', '-c', '…']);
    expect(plan.sandbox).toEqual({ active: true });
  });

  it('runs unsandboxed, saying why, where the sandbox does not work', () => {
    const plan = planLaunch({
      spec: specOf(path.join(FIXTURES, 'hostile', 'node')),
      sandbox: {
        grants: [],
        dataDir: own,
        hiddenRoot: data,
        support: { available: false, reason: 'bwrap is not installed' },
      },
    });
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.sandbox).toEqual({ active: false, reason: 'bwrap is not installed' });
    expect(path.basename(plan.file)).not.toBe('bwrap');
  });
});

describe('finding an interpreter', () => {
  it('looks on Plugboard’s PATH, never on the one the manifest sets, and runs nothing to ask', () => {
    // A plugin whose manifest puts its own folder first on PATH, where a "python3" waits.
    const dir = tmpDir('fake-python');
    const ran = path.join(root, 'ran-on-the-host');
    mkdirSync(path.join(dir, 'bin'));
    writeFileSync(path.join(dir, 'bin', 'python3'), `#!/bin/sh\ntouch ${ran}\n`);
    chmodSync(path.join(dir, 'bin', 'python3'), 0o755);
    writeFileSync(path.join(dir, 'plugin.py'), '');
    const manifest = {
      id: 'ships-python',
      protocol: 'jsonrpc',
      command: ['python3', 'plugin.py'],
      env: { PATH: '${__dirname}/bin:/usr/bin:/bin' },
    };
    writeFileSync(path.join(dir, 'plugboard.json'), JSON.stringify(manifest));
    const plan = planLaunch({
      spec: specOf(dir),
      parentEnv: { PATH: '/usr/bin:/bin', HOME: '/nonexistent-home' },
      sandbox: {
        grants: [],
        dataDir: own,
        hiddenRoot: data,
        support: { available: true, bwrap: '/usr/bin/bwrap', version: null },
      },
    });
    if (!plan.ok) throw new Error(plan.message);
    const command = plan.args.slice(plan.args.indexOf('--'));
    expect(command).toEqual(['--', '/usr/bin/python3', realpathSync(path.join(dir, 'plugin.py'))]);
    // Inside its sandbox the plugin keeps the PATH it asked for, after the real interpreter's folder.
    expect(plan.env.PATH?.split(':').slice(0, 2)).toEqual(['/usr/bin', path.join(realpathSync(dir), 'bin')]);
    expect(existsSync(ran)).toBe(false);
  });
});

describe('the app’s own runtime standing in for node', () => {
  it('shows the folder beside the binary, where Electron keeps what it needs to start', () => {
    const app = path.join(tmpDir('app-runtime'), 'Plugboard');
    mkdirSync(app);
    const binary = path.join(app, 'plugboard');
    cpSync('/bin/true', binary);
    const facts = interpreterFacts(binary, {
      pathEnv: '',
      toolchain: { home: '/nonexistent-home', env: {}, projectDir: app },
      untrusted: [],
      hostRuntime: binary,
    });
    expect(facts).toEqual({ file: binary, roots: [binary, realpathSync(app)], binDirs: [] });
  });
});

describe('the probe', () => {
  it('says the sandbox exists on Linux only', () => {
    expect(probeSandbox({ platform: 'darwin' })).toEqual({
      available: false,
      reason: expect.stringContaining('Linux only (this is darwin)'),
    });
  });

  it('says when it is turned off', () => {
    expect(probeSandbox({ env: { ...process.env, PLUGBOARD_SANDBOX: 'off' }, platform: 'linux' })).toEqual({
      available: false,
      reason: 'turned off by PLUGBOARD_SANDBOX=off',
    });
  });

  it('says bwrap is not installed, and where it looked', () => {
    const empty = tmpDir('no-bwrap');
    expect(probeSandbox({ env: { PATH: empty }, platform: 'linux', fallbackPath: '' })).toEqual({
      available: false,
      reason: `bwrap is not installed (install the bubblewrap package; looked on ${empty})`,
    });
  });

  it('says user namespaces are unavailable when bwrap cannot create them', () => {
    // Disabling user namespaces would change the whole machine: this bwrap fails as the real one
    // does where they are off (Ubuntu's AppArmor restriction, a hardened kernel).
    const dir = tmpDir('fake-bwrap');
    writeFileSync(
      path.join(dir, 'bwrap'),
      '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n',
    );
    chmodSync(path.join(dir, 'bwrap'), 0o755);
    const r = probeSandbox({ env: { PATH: dir }, platform: 'linux', fallbackPath: '' });
    expect(r).toEqual({
      available: false,
      reason: `user namespaces are not available to bwrap here (${path.join(dir, 'bwrap')}): bwrap: setting up uid map: Permission denied`,
    });
  });
});

describe('folders shown for grants and interpreters', () => {
  const folder = (key: string): SettingSpec => ({
    key,
    type: 'directory',
    title: key,
    description: '',
    required: false,
    sensitive: false,
    multiple: true,
  });

  it('shows the folders of directory settings only as granted: none, read-only, writable', () => {
    const settings = [folder('roots'), { ...folder('name'), type: 'string' as const }];
    const values = { roots: ['~/Documents', '/srv/shared'], name: '/not/a/folder/setting' };
    expect(grantedFolders(settings, values, [], '/home/u')).toEqual({ readPaths: [], writePaths: [] });
    expect(grantedFolders(settings, values, ['fs.read'], '/home/u')).toEqual({
      readPaths: ['/home/u/Documents', '/srv/shared'],
      writePaths: [],
    });
    expect(grantedFolders(settings, values, ['fs.read', 'fs.write'], '/home/u')).toEqual({
      readPaths: [],
      writePaths: ['/home/u/Documents', '/srv/shared'],
    });
  });

  it('shows an interpreter’s install prefix, never the home folder nor a hidden folder right in it', () => {
    expect(installRoot('/home/u/.pyenv/versions/3.12.1/bin/python3.12', '/home/u')).toBe(
      '/home/u/.pyenv/versions/3.12.1',
    );
    expect(installRoot('/home/u/miniconda3/bin/python3', '/home/u')).toBe('/home/u/miniconda3');
    expect(installRoot('/home/u/bin/node', '/home/u')).toBe('/home/u/bin');
    expect(installRoot('/home/u/.local/bin/node', '/home/u')).toBe('/home/u/.local/bin');
    expect(installRoot('/home/u/node', '/home/u')).toBe('/home/u/node');
  });
});
