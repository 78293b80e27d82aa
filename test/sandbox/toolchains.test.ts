/**
 * Real toolchains in the sandbox (issue 17, item 3): a program behind a version manager's shim is
 * found by reading the manager's files, never by running anything, and runs in the sandbox with
 * its install prefix shown read-only.
 *
 * What is real here: pyenv (this machine's /root/.pyenv, where it exists), the Python virtual
 * environment a pipx install makes (made with the real `python3 -m venv`), the Node binary in every
 * layout (this machine's node, hard-linked where each manager keeps its versions), and the
 * sandbox runs. What is built: the managers' own files (nvm's folders and alias, volta's shim link
 * and platform.json, asdf's shim script, mise's shim link and config.toml), laid out as each tool
 * documents them; their shim programs are stand-ins that are never run (nothing is).
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planLaunch, type LaunchPlan } from '../../src/main/host/process/launch';
import { installRoot } from '../../src/main/host/process/sandbox-interpreter';
import { sandboxSupport } from '../../src/main/host/process/sandbox-probe';
import { miseTools, pickVersion, resolveShim } from '../../src/main/host/process/toolchains';
import { specOf } from '../helpers/calls';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { describeSandboxed } from '../helpers/sandbox';

const NODE = realpathSync(process.execPath);
const VERSION = process.version; // v20.x.y: the version the layouts install
let home: string;
let data: string;

/** A directory that exists, open to all (the sandbox may run the plugin as nobody under root). */
function dir(...parts: string[]): string {
  const d = path.join(...parts);
  mkdirSync(d, { recursive: true, mode: 0o755 });
  return d;
}

/** This machine's node, where a manager keeps a version: a hard link (a copy across file systems). */
function installNode(binDir: string, name = 'node'): string {
  const target = path.join(dir(binDir), name);
  try {
    linkSync(NODE, target);
  } catch {
    copyFileSync(NODE, target);
    chmodSync(target, 0o755);
  }
  return target;
}

function script(file: string, text: string): string {
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

/** A plugin folder whose command is `command`, and what it prints when run sandboxed. */
function runPlugin(command: string[], pathEnv: string, extraEnv: Record<string, string> = {}): string {
  const pluginDir = dir(tmpDir('toolchain-plugin'));
  chmodSync(pluginDir, 0o755);
  writeFileSync(path.join(pluginDir, 'plugboard.json'), JSON.stringify({ id: 'tc', protocol: 'jsonrpc', command }));
  const plan = planLaunch({
    spec: specOf(pluginDir),
    parentEnv: { PATH: pathEnv, HOME: home, ...extraEnv },
    sandbox: { grants: [], dataDir: dir(data, 'plugin-data', 'tc'), hiddenRoot: data, support: sandboxSupport() },
  });
  if (!plan.ok) throw new Error(plan.message);
  return run(plan);
}

function run(plan: LaunchPlan): string {
  const r = spawnSync(plan.file, plan.args, { cwd: plan.cwd, env: plan.env, encoding: 'utf8', timeout: 20_000 });
  return `${r.stdout}${r.stderr}`.trim();
}

const PRINT_NODE = ['-e', 'console.log(process.execPath)'];

beforeAll(() => {
  home = dir(tmpDir('toolchain-home'));
  chmodSync(home, 0o755);
  data = dir(tmpDir('toolchain-data'));
});
afterAll(() => cleanupFixtures());

describe('choosing a version as each manager does', () => {
  it('takes the exact version, else the newest that starts with it', () => {
    const installed = ['3.9.18', '3.10.13', '3.12.1', '3.12.0', 'v20.1.0', 'v20.11.1'];
    expect(pickVersion(installed, '3.12')).toBe('3.12.1');
    expect(pickVersion(installed, '3.10.13')).toBe('3.10.13');
    expect(pickVersion(installed, '20')).toBe('v20.11.1');
    expect(pickVersion(installed, '3.11')).toBeNull();
  });

  it('reads the [tools] table of mise.toml in its three forms', () => {
    const text = '[env]\nA = "1"\n[tools]\nnode = "20"\npython = ["3.12", "3.11"]\n"npm:pnpm" = { version = "9" }\n';
    expect([...miseTools(text)]).toEqual([
      ['node', ['20']],
      ['python', ['3.12', '3.11']],
      ['npm:pnpm', ['9']],
    ]);
  });

  it('shows a Homebrew program’s whole prefix, where its libraries are', () => {
    const brew = '/home/linuxbrew/.linuxbrew';
    expect(installRoot(`${brew}/Cellar/node/21.6.0/bin/node`, '/home/ada')).toBe(brew);
    expect(installRoot('/opt/homebrew/Cellar/python@3.12/3.12.1/bin/python3.12', '/Users/ada')).toBe('/opt/homebrew');
  });
});

const PYENV = path.join(os.homedir(), '.pyenv');
describe.skipIf(!existsSync(path.join(PYENV, 'shims', 'python3')))(
  existsSync(PYENV) ? 'pyenv (this machine’s)' : 'pyenv (skipped: no ~/.pyenv on this machine)',
  () => {
    it('follows PYENV_VERSION, then .python-version from the plugin’s folder up, then the global version', () => {
      const shim = path.join(PYENV, 'shims', 'python3');
      const project = dir(tmpDir('pyenv-project'));
      const ctx = { home: os.homedir(), env: {}, projectDir: project };
      const global = resolveShim(shim, ctx);
      expect(global).toMatchObject({ tool: 'pyenv', file: expect.stringMatching(/\/versions\/[^/]+\/bin\/python3$/) });
      writeFileSync(path.join(project, '.python-version'), '3.12\n');
      expect(resolveShim(shim, ctx)).toEqual({
        tool: 'pyenv',
        file: expect.stringMatching(/\/versions\/3\.12\.\d+\//),
      });
      expect(resolveShim(shim, { ...ctx, env: { PYENV_VERSION: '3.10' } })).toEqual({
        tool: 'pyenv',
        file: expect.stringMatching(/\/versions\/3\.10\.\d+\//),
      });
    });
  },
);

describeSandboxed('programs behind shims and version managers, run in the sandbox', () => {
  it.skipIf(!existsSync(path.join(PYENV, 'shims', 'python3')))('a pyenv shim (this machine’s)', () => {
    const out = runPlugin(
      ['python3', '-c', 'import sys; print(sys.executable, sys.prefix)'],
      `${PYENV}/shims:/usr/bin:/bin`,
      {
        PYENV_ROOT: PYENV,
      },
    );
    expect(out).toMatch(new RegExp(`^${PYENV}/versions/[^/]+/bin/python3 ${PYENV}/versions/[^/ ]+$`));
  });

  it('nvm: a version under ~/.nvm/versions/node, found through nvm’s default alias when PATH has no node', () => {
    const bin = path.join(home, '.nvm', 'versions', 'node', VERSION, 'bin');
    installNode(bin);
    dir(home, '.nvm', 'alias');
    writeFileSync(path.join(home, '.nvm', 'alias', 'default'), VERSION.slice(1).split('.')[0] ?? '');
    // On PATH, as nvm's own start-up puts it there.
    expect(runPlugin(['node', ...PRINT_NODE], `${bin}:/bin`)).toBe(path.join(bin, 'node'));
    // And with no node on PATH at all: nvm's default version.
    expect(runPlugin(['node', ...PRINT_NODE], '/nonexistent', { NVM_DIR: path.join(home, '.nvm') })).toBe(
      path.join(bin, 'node'),
    );
  });

  it('volta: its shim link, resolved to the default Node in tools/user/platform.json', () => {
    const volta = path.join(home, '.volta');
    const image = path.join(volta, 'tools', 'image', 'node', VERSION.slice(1), 'bin');
    installNode(image);
    const bin = dir(volta, 'bin');
    script(path.join(bin, 'volta-shim'), '#!/bin/sh\necho "volta-shim stand-in: never run" >&2\nexit 1\n');
    symlinkSync('volta-shim', path.join(bin, 'node'));
    dir(volta, 'tools', 'user');
    writeFileSync(
      path.join(volta, 'tools', 'user', 'platform.json'),
      JSON.stringify({ node: { runtime: VERSION.slice(1), npm: null } }),
    );
    expect(runPlugin(['node', ...PRINT_NODE], `${bin}:/usr/bin:/bin`)).toBe(path.join(image, 'node'));
  });

  it('asdf: its shim script, resolved through .tool-versions in the home folder', () => {
    const asdf = path.join(home, '.asdf');
    const version = VERSION.slice(1);
    const installs = path.join(asdf, 'installs', 'nodejs', version, 'bin');
    installNode(installs);
    const shims = dir(asdf, 'shims');
    script(
      path.join(shims, 'node'),
      `#!/usr/bin/env bash\n# asdf-plugin: nodejs ${version}\nexec ${asdf}/bin/asdf exec "node" "$@" # asdf_allow: ' asdf '\n`,
    );
    writeFileSync(path.join(home, '.tool-versions'), `nodejs ${version}\npython 3.12.1\n`);
    expect(runPlugin(['node', ...PRINT_NODE], `${shims}:/usr/bin:/bin`)).toBe(path.join(installs, 'node'));
  });

  it('mise: its shim link to the mise binary, resolved through ~/.config/mise/config.toml', () => {
    const share = path.join(home, '.local', 'share', 'mise');
    const installs = path.join(share, 'installs', 'node', VERSION.slice(1), 'bin');
    installNode(installs);
    const mise = script(
      path.join(dir(home, '.local', 'bin'), 'mise'),
      '#!/bin/sh\necho "mise stand-in: never run" >&2\nexit 1\n',
    );
    const shims = dir(share, 'shims');
    symlinkSync(mise, path.join(shims, 'node'));
    dir(home, '.config', 'mise');
    writeFileSync(
      path.join(home, '.config', 'mise', 'config.toml'),
      `[tools]\nnode = "${VERSION.slice(1).split('.')[0]}"\n`,
    );
    expect(runPlugin(['node', ...PRINT_NODE], `${shims}:/usr/bin:/bin`)).toBe(path.join(installs, 'node'));
  });

  it('~/.local/bin: a pipx tool, its virtual environment and the Python it was made from', () => {
    const venv = path.join(home, '.local', 'share', 'pipx', 'venvs', 'mcp-tool');
    const made = spawnSync('python3', ['-m', 'venv', '--without-pip', venv], { encoding: 'utf8', timeout: 60_000 });
    expect(made.status, made.stderr).toBe(0);
    const tool = script(
      path.join(venv, 'bin', 'mcp-tool'),
      `#!${venv}/bin/python\nimport sys\nprint(sys.prefix, sys.base_prefix != sys.prefix)\n`,
    );
    const local = dir(home, '.local', 'bin');
    symlinkSync(tool, path.join(local, 'mcp-tool'));
    expect(runPlugin(['mcp-tool'], `${local}:/usr/bin:/bin`)).toBe(`${venv} True`);
  });

  it('node /abs/path/dist/index.js: its package root and the node_modules its imports find, hoisted and linked', () => {
    const repo = dir(tmpDir('monorepo'));
    chmodSync(repo, 0o755);
    dir(repo, 'node_modules', 'hoisted-dep');
    writeFileSync(path.join(repo, 'node_modules', 'hoisted-dep', 'index.js'), "module.exports = 'hoisted';\n");
    dir(repo, 'packages', 'util');
    writeFileSync(path.join(repo, 'packages', 'util', 'package.json'), '{"name":"@acme/util","main":"index.js"}');
    writeFileSync(path.join(repo, 'packages', 'util', 'index.js'), "module.exports = 'linked';\n");
    dir(repo, 'node_modules', '@acme');
    symlinkSync('../../packages/util', path.join(repo, 'node_modules', '@acme', 'util'));
    dir(repo, 'notes');
    writeFileSync(path.join(repo, 'notes', 'secret.txt'), 'not for the plugin\n');
    const server = dir(repo, 'packages', 'server', 'dist');
    writeFileSync(path.join(repo, 'packages', 'server', 'package.json'), '{"name":"server"}');
    const entry = path.join(server, 'index.js');
    writeFileSync(
      entry,
      [
        "const fs = require('node:fs');",
        "let secret = 'hidden';",
        `try { secret = fs.readFileSync(${JSON.stringify(path.join(repo, 'notes', 'secret.txt'))}, 'utf8').trim(); } catch {}`,
        "console.log(require('hoisted-dep'), require('@acme/util'), secret);",
      ].join('\n'),
    );
    expect(runPlugin(['node', entry], '/usr/bin:/bin')).toBe('hoisted linked hidden');
  });
});
