/**
 * What the sandbox of one launch needs from the host: the folders granted through settings, the
 * system folders as they are on this machine, and the install prefix of the interpreter (a pyenv
 * or nvm Python or Node lives under the home folder, which the sandbox does not show).
 * Everything here reads the real file system; sandbox.ts stays pure.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { SettingSpec } from '../../../shared/model';
import { isInside } from '../../fs';
import type { LaunchPlan, SettingValue } from './launch';
import { isNodeName, isPythonName, searchPath } from './resolve';
import type { SandboxPolicy, SystemEntry } from './sandbox';

/** What the caller of planLaunch says about a plugin's sandbox. */
export interface SandboxRequest {
  /** The capabilities granted to the plugin (fs.read, fs.write and net decide the mounts). */
  grants: readonly string[];
  /** The plugin's own data folder, PLUGBOARD_DATA_DIR: writable inside, and its HOME. */
  dataDir: string;
  /** The Plugboard data directory: invisible inside. */
  hiddenRoot: string;
  /** Read-only folders every plugin may need: the app's node_modules, the SDK folder. */
  extraReadOnly?: string[];
}

/**
 * The app's own folders a plugin may need read-only: the node_modules given to plugins as
 * PLUGBOARD_NODE_MODULES (node-pty for the terminal) and the SDK next to the bundled plugins
 * (they import `../../sdk/node/dist`). App code, no user data.
 */
export function appReadOnlyFolders(opts: { bundledDir?: string; nodeModules?: string }): string[] {
  const out: string[] = [];
  if (opts.nodeModules) out.push(opts.nodeModules);
  if (opts.bundledDir) out.push(path.join(path.dirname(path.resolve(opts.bundledDir)), 'sdk'));
  return out.filter((p) => existsSync(p));
}

/**
 * Visible read-only, when present: programs, libraries and system configuration. /etc is shown
 * whole: certificates, the resolver, passwd (getpwuid), /etc/alternatives symlinks and shell
 * profiles are all needed by ordinary programs, its files readable by any user are not secrets,
 * and a list of its parts would break plugins on the next distribution. /opt and /nix/store hold
 * installed software. Not shown: /home and /root, /run (session buses, the keyring's socket),
 * /var, /sys, /mnt, /media, /srv.
 */
export const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt', '/nix/store'];

let systemCache: SystemEntry[] | undefined;

/** The system folders of this host, symlinks kept as symlinks (/bin -> usr/bin on merged /usr). */
export function systemEntries(): SystemEntry[] {
  if (systemCache) return systemCache;
  const out: SystemEntry[] = [];
  for (const p of SYSTEM_PATHS) {
    try {
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out.push({ path: p, symlink: readlinkSync(p) });
      else if (st.isDirectory()) out.push({ path: p });
    } catch {
      // not on this system
    }
  }
  // The resolver's file may live outside /etc (systemd-resolved: /run/systemd/resolve/…).
  const resolv = realOrNull('/etc/resolv.conf');
  if (resolv && !isInside('/etc', resolv) && !out.some((e) => isInside(e.path, resolv))) out.push({ path: resolv });
  systemCache = out;
  return out;
}

function realOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

function real(p: string): string {
  return realOrNull(p) ?? path.resolve(p);
}

/**
 * The folders the person chose in the plugin's directory and file settings, read-only with
 * fs.read, writable with fs.write, and not mounted at all without either: the setting's value
 * still reaches the plugin, but the folder does not exist inside.
 */
export function grantedFolders(
  settings: readonly SettingSpec[],
  values: Record<string, SettingValue>,
  grants: readonly string[],
  home: string,
): { readPaths: string[]; writePaths: string[] } {
  const folders: string[] = [];
  for (const s of settings) {
    if (s.type !== 'directory' && s.type !== 'file') continue;
    const v = values[s.key];
    for (const item of Array.isArray(v) ? v : v === undefined ? [] : [String(v)]) {
      const expanded = item.trim().replace(/^~(?=$|\/)/, home).replace(/^\$\{HOME\}/, home);
      if (path.isAbsolute(expanded)) folders.push(path.normalize(expanded));
    }
  }
  const unique = [...new Set(folders)];
  if (grants.includes('fs.write')) return { readPaths: [], writePaths: unique };
  if (grants.includes('fs.read')) return { readPaths: unique, writePaths: [] };
  return { readPaths: [], writePaths: [] };
}

/** The interpreter to run and the folders it needs visible. */
export interface InterpreterFacts {
  /** The executable to run instead of a shim (pyenv's bash script, volta's binary). */
  file: string;
  roots: string[];
}

const PROBE_MS = 5000;
const PYTHON_PROBE = 'import json,sys;print(json.dumps([sys.executable,sys.prefix,sys.base_prefix,sys.exec_prefix,sys.base_exec_prefix]))';
const NODE_PROBE = 'process.stdout.write(JSON.stringify([process.execPath]))';
const probeCache = new Map<string, string[] | null>();

/** Asks an interpreter where it really lives; cached per executable, folder and PATH. */
function askInterpreter(file: string, python: boolean, plan: LaunchPlan): string[] | null {
  const key = `${file}\0${plan.cwd}\0${plan.env.PATH ?? ''}`;
  if (probeCache.has(key)) return probeCache.get(key) ?? null;
  const r = spawnSync(file, python ? ['-c', PYTHON_PROBE] : ['-e', NODE_PROBE], { cwd: plan.cwd, env: plan.env, timeout: PROBE_MS, encoding: 'utf8' });
  let out: string[] | null = null;
  try {
    const parsed: unknown = JSON.parse(r.stdout.trim().split('\n').pop() ?? '');
    if (Array.isArray(parsed) && parsed.every((x) => typeof x === 'string' && path.isAbsolute(x))) out = parsed as string[];
  } catch {
    // No answer: the install-prefix guess below stands alone.
  }
  probeCache.set(key, out);
  return out;
}

function startsWithShebang(file: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('utf8');
    return text.startsWith('#!') ? (text.slice(2).split('\n')[0] ?? '').trim() : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Where an executable's installation lives: `<prefix>` for `<prefix>/bin/<name>`, else its
 * folder, else the file alone; never the home folder or one of its parents, which would show
 * the whole home.
 */
export function installRoot(realFile: string, home: string): string {
  const dir = path.dirname(realFile);
  return shownRoot([path.basename(dir) === 'bin' ? path.dirname(dir) : dir, dir], home) ?? realFile;
}

/** The first folder that may be shown: not `/`, not the home folder nor one of its parents. */
function shownRoot(candidates: string[], home: string): string | undefined {
  return candidates.find((c) => c !== '/' && !isInside(c, home));
}

/**
 * The interpreter of a plan and the folders to show read-only for it. A Python or Node named by
 * a shim (a script, or a binary not named like the interpreter) is asked for its real executable,
 * which then runs directly: the shim's own machinery (pyenv's bash and version files) lives in
 * the home folder. A script's `#!` interpreter is followed one level (`#!/usr/bin/env node`).
 */
export function interpreterFacts(plan: LaunchPlan, home: string): InterpreterFacts {
  const roots: string[] = [];
  const visit = (file: string, replace: boolean): string => {
    const realFile = real(file);
    const base = path.basename(file);
    const python = isPythonName(base);
    const shebang = startsWithShebang(realFile);
    if (python || isNodeName(base)) {
      const looksReal = shebang === null && (python ? isPythonName(path.basename(realFile)) : isNodeName(path.basename(realFile)));
      const facts = looksReal ? null : askInterpreter(file, python, plan);
      if (facts) {
        const [exe, ...prefixes] = facts as [string, ...string[]];
        roots.push(installRoot(real(exe), home), ...prefixes.flatMap((p) => shownRoot([real(p)], home) ?? []));
        return replace ? exe : file;
      }
    } else if (shebang) {
      const [interp, ...rest] = shebang.split(/\s+/);
      const name = interp && path.basename(interp) === 'env' ? rest.find((a) => !a.startsWith('-')) : interp;
      const found = name && (path.isAbsolute(name) ? name : searchPath(name, plan.env.PATH ?? ''));
      if (found) visit(found, false);
    }
    roots.push(installRoot(realFile, home));
    return file;
  };
  const file = visit(plan.file, true);
  return { file, roots: [...new Set(roots)] };
}

/** The policy of one launch, with every host fact it needs. */
export function sandboxPolicy(
  plan: LaunchPlan,
  input: { bwrap: string; pluginDir: string; settings: readonly SettingSpec[]; values: Record<string, SettingValue>; home: string; request: SandboxRequest },
): { plan: LaunchPlan; policy: SandboxPolicy } {
  const { request, home } = input;
  // bwrap refuses to start when the source of a bind is missing; the plugin's own folder must be.
  mkdirSync(request.dataDir, { recursive: true });
  const interp = interpreterFacts(plan, home);
  const system = systemEntries();
  const shown = system.filter((e) => e.symlink === undefined).map((e) => e.path);
  // The plugin's folder and what the system folders show already need no mount of their own.
  const needed = interp.roots.filter((r) => !shown.some((s) => isInside(s, r)) && !isInside(real(input.pluginDir), r));
  const folders = grantedFolders(input.settings, input.values, request.grants, home);
  const realCache = new Map<string, string>();
  return {
    plan: interp.file === plan.file ? plan : { ...plan, file: interp.file },
    policy: {
      bwrap: input.bwrap,
      pluginDir: input.pluginDir,
      dataDir: request.dataDir,
      hiddenRoot: request.hiddenRoot,
      readPaths: folders.readPaths,
      writePaths: folders.writePaths,
      net: request.grants.includes('net'),
      extraReadOnly: [...new Set([...(request.extraReadOnly ?? []), ...needed])],
      system,
      realPath: (p) => {
        let r = realCache.get(p);
        if (r === undefined) realCache.set(p, (r = real(p)));
        return r;
      },
    },
  };
}
