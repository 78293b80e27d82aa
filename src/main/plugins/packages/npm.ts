/**
 * Installing an npm package the way `npx -y pkg` would fetch it, once, into the plugin's own
 * folder: `npm install --save-exact pkg@spec` in `.plugboard/npm`, which pins the version in its
 * package.json and keeps every package's integrity hash in its package-lock.json. The server
 * then runs as `node <its bin script>` from there, the program npx would have picked (the
 * package's only bin, or the one named after it; `npx -p pkg cmd` names it).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../fs';
import type { PackageRequest } from './detect';
import type { Installed, StepRunner } from './install-types';
import { findTool, stepPath } from './tools';

const NPM_DIR = 'npm';

interface LockEntry {
  version?: string;
  integrity?: string;
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The script a package's `bin` runs, as npx chooses it. */
export function binScript(pkg: { name?: unknown; bin?: unknown }, wanted: string | null): string | { error: string } {
  const name = typeof pkg.name === 'string' ? pkg.name : '';
  const bin = pkg.bin;
  if (typeof bin === 'string') return bin;
  if (typeof bin !== 'object' || bin === null)
    return { error: `${name} has no program to run (its package.json has no "bin")` };
  const bins = Object.entries(bin as Record<string, unknown>).filter(
    (e): e is [string, string] => typeof e[1] === 'string',
  );
  const unscoped = name.replace(/^@[^/]+\//, '');
  const pick = wanted
    ? bins.find(([k]) => k === wanted)
    : bins.length === 1
      ? bins[0]
      : bins.find(([k]) => k === unscoped);
  if (pick) return pick[1];
  const names = bins.map(([k]) => k).join(', ');
  return {
    error: wanted
      ? `${name} has no program "${wanted}" (it has: ${names})`
      : `${name} has several programs (${names}) and none is named after it: name one with "npx -p ${name} <program>"`,
  };
}

export async function installNpm(req: PackageRequest, step: StepRunner): Promise<Installed> {
  const npm = await findTool('npm', step.env);
  const node = await findTool('node', step.env);
  if (!npm || !node) {
    const which = !npm ? 'npm' : 'node';
    return {
      ok: false,
      message: `${which} was not found on PATH (${step.env.PATH ?? ''}) or the login shell's: install Node.js to install ${req.spec}`,
    };
  }
  const dir = path.join(step.work, NPM_DIR);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'plugboard-installed-package', private: true, description: `${req.spec}, installed by Plugboard` }, null, 2)}\n`,
  );
  const opts = {
    cwd: dir,
    tools: [npm, node],
    env: { PATH: stepPath([node, npm]), npm_config_update_notifier: 'false' },
  };
  // Two runs: the fetch, with the person's registry credentials and no package's scripts; then
  // the packages' own install scripts (a native module's build), with the network but without
  // the credentials, which a hostile package's script read and sent away (red team N01).
  const ran = await step.run(
    npm.file,
    [
      'install',
      '--save-exact',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
      '--ignore-scripts',
      '--loglevel=http',
      req.spec,
    ],
    opts,
  );
  if (!ran.ok) return { ok: false, message: `npm install ${req.spec} failed${ran.why}`, tail: ran.tail };
  step.forgetCredentials();
  const built = await step.run(npm.file, ['rebuild', '--foreground-scripts', '--no-update-notifier'], {
    ...opts,
    env: { ...step.scriptEnv, ...opts.env },
  });
  if (!built.ok)
    return { ok: false, message: `the install scripts of ${req.spec}'s packages failed${built.why}`, tail: built.tail };

  const lockFile = path.join(dir, 'package-lock.json');
  let lock: { packages?: Record<string, LockEntry> };
  try {
    lock = readJson(lockFile) as typeof lock;
  } catch (e) {
    return { ok: false, message: `npm left no readable package-lock.json: ${(e as Error).message}` };
  }
  const entries = lock.packages ?? {};
  const top = entries[`node_modules/${req.name}`];
  if (!top?.version) return { ok: false, message: `npm did not install ${req.name} (not in its package-lock.json)` };
  const pkgDir = path.join(dir, 'node_modules', req.name);
  let manifest: { name?: unknown; bin?: unknown };
  try {
    manifest = readJson(path.join(pkgDir, 'package.json')) as typeof manifest;
  } catch (e) {
    return { ok: false, message: `${req.name}'s package.json does not read: ${(e as Error).message}` };
  }
  const script = binScript(manifest, 'bin' in req.run ? req.run.bin : null);
  if (typeof script !== 'string') return { ok: false, message: script.error };
  const target = path.resolve(pkgDir, script);
  if (!isInside(pkgDir, target) || !existsSync(target))
    return { ok: false, message: `${req.name}'s program ${script} is not in the package` };
  const rel = path.relative(step.pluginDir, target).split(path.sep).join('/');
  return {
    ok: true,
    version: top.version,
    integrity: top.integrity ?? null,
    launch: ['node', `\${__dirname}/${rel}`, ...req.args],
    env: {},
    lock: path.relative(step.pluginDir, lockFile).split(path.sep).join('/'),
    packages: Object.keys(entries).filter((k) => k.startsWith('node_modules/')).length,
  };
}
