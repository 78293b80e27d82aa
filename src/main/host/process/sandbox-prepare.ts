/**
 * What the sandbox of one launch needs from the host: the folders granted through settings, the
 * system folders as they are on this machine, and what the interpreter needs to be seen
 * (sandbox-interpreter.ts). Everything here reads the real file system; sandbox.ts stays pure.
 */
import { existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { SettingSpec } from '../../../shared/plugin';
import { isInside } from '../../fs';
import type { LaunchPlan, SettingValue } from './plan';
import type { SandboxPolicy, SystemEntry } from './sandbox';
import { interpreterFacts } from './sandbox-interpreter';

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

/** The policy of one launch, with every host fact it needs. */
export function sandboxPolicy(
  plan: LaunchPlan,
  input: {
    bwrap: string;
    pluginDir: string;
    settings: readonly SettingSpec[];
    values: Record<string, SettingValue>;
    home: string;
    /** The host's allow-listed environment (env.ts), for asking an interpreter where it lives. */
    hostEnv: Record<string, string>;
    /** The host's own runtime, when it may run plugins as node (Electron). */
    execPath?: string;
    request: SandboxRequest;
  },
): { plan: LaunchPlan; policy: SandboxPolicy } {
  const { request, home } = input;
  // bwrap refuses to start when the source of a bind is missing; the plugin's own folder must be.
  mkdirSync(request.dataDir, { recursive: true });
  const fromSettings = grantedFolders(input.settings, input.values, request.grants, home);
  const byPath = request.folders ?? [];
  const folders = {
    readPaths: [...fromSettings.readPaths, ...byPath.filter((f) => !f.write).map((f) => f.path)],
    writePaths: [...fromSettings.writePaths, ...byPath.filter((f) => f.write).map((f) => f.path)],
  };
  const interp = interpreterFacts(plan.file, {
    pathEnv: plan.env.PATH ?? '',
    hostEnv: input.hostEnv,
    home,
    untrusted: [input.pluginDir, request.hiddenRoot, request.dataDir, ...folders.readPaths, ...folders.writePaths].map(
      real,
    ),
    ...(input.execPath ? { hostRuntime: input.execPath } : {}),
  });
  const system = systemEntries();
  const shown = system.filter((e) => e.symlink === undefined).map((e) => e.path);
  // The plugin's folder and what the system folders show already need no mount of their own.
  const needed = interp.roots.filter(
    (r) => !shown.some((s) => isInside(s, real(r))) && !isInside(real(input.pluginDir), real(r)),
  );
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
