/**
 * What the sandbox of one launch needs from the host: the folders granted through settings, the
 * system folders as they are on this machine, and what the interpreter needs to be seen
 * (sandbox-interpreter.ts). Everything here reads the real file system; sandbox.ts stays pure.
 */
import { existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { failure, type Failure } from '../../../shared/failures';
import type { SettingSpec } from '../../../shared/plugin';
import { isInside } from '../../fs';
import { joinPaths } from './env';
import type { LaunchPlan, SettingValue } from './plan';
import { PROC_MASKS, type SandboxPolicy, type SystemEntry } from './sandbox';
import { interpreterFacts } from './sandbox-interpreter';
import { scriptRefusal, scriptRoots } from './script-roots';
import type { ToolchainContext } from './toolchains';
import { effectiveLimits, type PluginLimits } from './limits';
import { prepareForRoot } from './root';
import { rlimitsOf } from './sandbox-inner';
import type { SandboxSupport } from './sandbox-support';

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
  /** Folders and files granted by path (whatever the plugin's settings): read-only or writable. */
  folders?: ReadonlyArray<{ path: string; write: boolean }>;
  /** Its limits where they differ from the defaults (the manifest's, then the person's). */
  limits?: Partial<PluginLimits>;
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
export const SYSTEM_PATHS = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/opt',
  '/nix/store',
];

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

/** The files of /proc the sandbox covers (PROC_MASKS) that this kernel has. */
export function procMasks(): string[] {
  return PROC_MASKS.filter((p) => existsSync(p));
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
      const expanded = item
        .trim()
        .replace(/^~(?=$|\/)/, home)
        .replace(/^\$\{HOME\}/, home);
      if (path.isAbsolute(expanded)) folders.push(path.normalize(expanded));
    }
  }
  const unique = [...new Set(folders)];
  if (grants.includes('fs.write')) return { readPaths: [], writePaths: unique };
  if (grants.includes('fs.read')) return { readPaths: unique, writePaths: [] };
  return { readPaths: [], writePaths: [] };
}

/** The policy of one launch, with every host fact it needs, or why the launch cannot be. */
export function sandboxPolicy(
  plan: LaunchPlan,
  input: {
    support: Extract<SandboxSupport, { available: true }>;
    pluginDir: string;
    settings: readonly SettingSpec[];
    values: Record<string, SettingValue>;
    home: string;
    /** Plugboard's own PATH and the login shell's, where `#!/usr/bin/env x` is found. */
    pathEnv: string;
    /** The home, Plugboard's environment and the plugin's folder, for shims' version files. */
    toolchain: ToolchainContext;
    /** A script outside the plugin's folder (`node /abs/path/index.js`): its package is shown. */
    outsideScript?: { file: string; runner: 'node' | 'python' };
    /** Certificate files and folders Plugboard's environment names (env.ts NETWORK_ENV), shown read-only. */
    caPaths?: string[];
    /** The host's own runtime, when it may run plugins as node (Electron). */
    execPath?: string;
    request: SandboxRequest;
  },
): { ok: true; plan: LaunchPlan; policy: SandboxPolicy } | Failure {
  const { request, home, support } = input;
  // bwrap refuses to start when the source of a bind is missing; the plugin's own folder must be.
  mkdirSync(request.dataDir, { recursive: true });
  if (support.root) {
    const refused = prepareForRoot(support.root, { ...request, pluginDir: input.pluginDir });
    if (refused) return refused;
  }
  const fromSettings = grantedFolders(input.settings, input.values, request.grants, home);
  const byPath = request.folders ?? [];
  const folders = {
    readPaths: [...fromSettings.readPaths, ...byPath.filter((f) => !f.write).map((f) => f.path)],
    writePaths: [...fromSettings.writePaths, ...byPath.filter((f) => f.write).map((f) => f.path)],
  };
  const untrusted = [input.pluginDir, request.hiddenRoot, request.dataDir, ...folders.readPaths, ...folders.writePaths];
  const interp = interpreterFacts(plan.file, {
    pathEnv: input.pathEnv,
    toolchain: input.toolchain,
    untrusted: untrusted.map(real),
    ...(input.execPath ? { hostRuntime: input.execPath } : {}),
  });
  if (interp.problem)
    return failure('launch_failed', interp.problem, {
      command: plan.displayCommand,
      pathSearched: plan.pathSearched,
      cwd: plan.cwd,
    });
  const outside = input.outsideScript;
  const refusedScript = outside ? scriptRefusal(outside.file, outside.runner, home) : null;
  if (refusedScript) return failure('launch_failed', refusedScript, { command: plan.displayCommand, cwd: plan.cwd });
  const script = outside ? scriptRoots(outside.file, outside.runner, home) : [];
  const system = systemEntries();
  const shown = system.filter((e) => e.symlink === undefined).map((e) => e.path);
  // The plugin's folder and what the system folders show already need no mount of their own.
  const ca = (input.caPaths ?? []).filter((p) => existsSync(p));
  const candidates = [...interp.roots, ...script, ...ca].filter(
    (r) => !shown.some((s) => isInside(s, real(r))) && !isInside(real(input.pluginDir), real(r)),
  );
  // What another of them shows already needs no mount of its own (bwrap could not make its mount
  // point inside a read-only one).
  const needed = candidates.filter((r) => !candidates.some((o) => o !== r && isInside(o, r)));
  const realCache = new Map<string, string>();
  // The real interpreters first on the plugin's PATH: `#!/usr/bin/env node` inside finds them, not a shim.
  const env =
    interp.binDirs.length > 0
      ? { ...plan.env, PATH: joinPaths([interp.binDirs.join(':'), plan.env.PATH ?? '']) }
      : plan.env;
  const limits = effectiveLimits(request.limits);
  const cgroup = support.limits?.cgroup;
  const rlimits = rlimitsOf(limits, cgroup);
  return {
    ok: true,
    plan: {
      ...plan,
      env,
      ...(interp.file === plan.file ? {} : { file: interp.file }),
      limits: { limits, dataDir: request.dataDir, ...(cgroup ? { cgroup } : {}) },
    },
    policy: {
      bwrap: support.bwrap,
      root: support.root ?? null,
      ...(support.helpers ? { helpers: support.helpers } : {}),
      limits,
      ...(rlimits ? { rlimits } : {}),
      pluginDir: input.pluginDir,
      dataDir: request.dataDir,
      hiddenRoot: request.hiddenRoot,
      readPaths: folders.readPaths,
      writePaths: folders.writePaths,
      net: request.grants.includes('net'),
      extraReadOnly: [...new Set([...(request.extraReadOnly ?? []), ...needed])],
      system,
      procMasks: procMasks(),
      realPath: (p) => {
        let r = realCache.get(p);
        if (r === undefined) realCache.set(p, (r = real(p)));
        return r;
      },
    },
  };
}
