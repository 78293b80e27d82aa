/**
 * The Linux sandbox of a plugin process, built with bubblewrap (bwrap): from a LaunchPlan and a
 * policy to a LaunchPlan that runs the same command inside its own mount, PID, IPC, UTS, cgroup
 * and (unless `net` is granted) network namespaces. Pure: what the host knows about its own
 * file system (real paths, which system folders are symlinks) comes in the policy, gathered by
 * sandbox-prepare.ts; whether bwrap works at all is sandbox-probe.ts.
 *
 * Why bwrap and not a hand-made namespace setup: it is the well-kept tool for exactly this
 * (Flatpak's sandbox), installed as a distribution package, and it works both setuid and with
 * unprivileged user namespaces. Nothing on npm does this.
 *
 * The file system inside starts empty (bwrap's root is a fresh tmpfs) and only what is listed
 * here is mounted, so anything not named (the user's home, /run, /var, the Plugboard data
 * directory) simply does not exist inside.
 */
/* eslint-disable max-lines -- one whole concern: the mounts of one bwrap command, from a policy (the way through masks included) */
import path from 'node:path';
import { isInside } from '../../fs';
import type { PluginLimits } from './limits';
import type { LaunchPlan } from './plan';
import {
  capabilityFlags,
  identityEnv,
  innerPrefix,
  type RootMode,
  type Rlimits,
  type SandboxHelpers,
} from './sandbox-inner';

/** A system folder as it is on the host: a real folder to bind read-only, or a symlink to copy. */
export interface SystemEntry {
  path: string;
  /** The link's target as written (merged-/usr systems: /bin -> usr/bin). */
  symlink?: string;
}

export interface SandboxPolicy {
  /** Absolute path of bwrap on the host. */
  bwrap: string;
  /** The plugin's folder: read-only. */
  pluginDir: string;
  /** The plugin's own data folder (PLUGBOARD_DATA_DIR): writable, and its HOME. */
  dataDir: string;
  /** The Plugboard data directory: never visible, wherever a granted folder would show it. */
  hiddenRoot: string;
  /** Folders granted with fs.read: read-only. */
  readPaths: string[];
  /** Folders granted with fs.write: writable. */
  writePaths: string[];
  /** `net` granted: the host's network namespace; otherwise a private one with only loopback. */
  net: boolean;
  /** Read-only extras: the app's node_modules, the SDK, the interpreter's install prefix. */
  extraReadOnly: string[];
  /** System folders present on this host (see SYSTEM_PATHS in sandbox-prepare.ts). */
  system: SystemEntry[];
  /** The files of PROC_MASKS this kernel has (bwrap cannot cover one that does not exist). */
  procMasks?: string[];
  /**
   * The real path of a path (symlinks resolved), to see where the hidden root shows through a
   * bind whose source is an alias. Identity when not given.
   */
  realPath?: (p: string) => string;
  /** Plugboard runs as root: the unprivileged user the plugin runs as (sandbox-inner.ts). */
  root?: RootMode | null;
  /** prlimit and nice, where present. */
  helpers?: SandboxHelpers;
  /** The plugin's limits: its /tmp and /dev/shm sizes, its largest file. */
  limits?: PluginLimits;
  /** Set where the plugin has no control group: its processes and memory held by rlimits instead. */
  rlimits?: Rlimits;
}

/**
 * Namespace and process flags, the same for every plugin.
 * - `--unshare-pid` with a fresh `/proc`: the plugin sees only its own processes, so neither the
 *   host's environment (/proc/<ppid>/environ) nor its command lines are readable. Inside, PID 1
 *   is bwrap's own reaper, whose environment is the plugin's (the host starts bwrap with it).
 * - `--die-with-parent`: if bwrap is killed, the kernel kills the sandbox (PR_SET_PDEATHSIG), and
 *   when the plugin exits, the PID namespace ends and takes every process in it along, so no
 *   grandchild outlives a plugin.
 * - No `--new-session`: the plugin is spawned detached, so bwrap already leads a session with no
 *   controlling terminal, and stdio are pipes: there is no terminal to push input into (the
 *   TIOCSTI attack --new-session guards against). Staying in bwrap's process group is what lets
 *   the host's SIGTERM reach the plugin itself (node-pty's shells make their own sessions anyway).
 * - `--cap-drop ALL` (capabilityFlags): run as root, bwrap would otherwise leave the plugin every
 *   capability, and with CAP_SYS_ADMIN it could unmount the masks below. Under root the plugin
 *   also runs as an unprivileged user (sandbox-inner.ts).
 * - `--unshare-ipc --unshare-uts --unshare-cgroup-try`: nothing a plugin needs lives there.
 */
export const NAMESPACE_FLAGS: readonly string[] = [
  '--die-with-parent',
  '--unshare-pid',
  '--unshare-ipc',
  '--unshare-uts',
  '--unshare-cgroup-try',
];

/**
 * Files of /proc that are the host's own business, covered by an empty, unreadable file where
 * the kernel has them: the keyrings (`/proc/keys`, `/proc/key-users`), and the kernel's emergency
 * keys. /proc/sys is shown read-only (root could otherwise write `kernel.core_pattern`, whose
 * `|program` the kernel runs as root at the next crash); bwrap covers /proc/irq and /proc/bus.
 */
export const PROC_MASKS = ['/proc/keys', '/proc/key-users', '/proc/sysrq-trigger'];

/** Later mounts win over earlier ones at the same or a deeper path; see order(). */
type Mount =
  | { kind: 'rw' | 'ro-grant' | 'ro' | 'own-ro' | 'own-rw' | 'proc-ro'; path: string; src: string }
  | { kind: 'symlink'; path: string; target: string }
  | { kind: 'proc' | 'dev' | 'mask' | 'dir'; path: string }
  | { kind: 'tmpfs'; path: string; size?: number };

/**
 * At the same depth, in this order: the private /tmp first, so that a granted /tmp replaces it;
 * then grants, so that system folders, /proc and /dev stay what they are even under a granted
 * `/`; then masks, which hide the data directory below anything bound there; the plugin's own
 * folders last, so they hold under a granted parent.
 */
const RANK: Record<Mount['kind'], number> = {
  dir: -2,
  tmpfs: -1,
  rw: 0,
  'ro-grant': 1,
  ro: 2,
  symlink: 3,
  proc: 4,
  dev: 4,
  'proc-ro': 4,
  mask: 5,
  'own-ro': 6,
  'own-rw': 7,
};

function depth(p: string): number {
  return p.split('/').filter(Boolean).length;
}

/** Parents before children (a bind hides what was mounted under its path before it). */
function order(mounts: Mount[]): Mount[] {
  return mounts
    .map((m, i) => ({ m, i }))
    .sort((a, b) => depth(a.m.path) - depth(b.m.path) || RANK[a.m.kind] - RANK[b.m.kind] || a.i - b.i)
    .map((x) => x.m);
}

function flagsOf(m: Mount): string[] {
  switch (m.kind) {
    case 'rw':
      return ['--bind-try', m.src, m.path];
    case 'own-rw':
      return ['--bind', m.src, m.path];
    case 'ro':
    case 'ro-grant':
      return ['--ro-bind-try', m.src, m.path];
    case 'own-ro':
      return ['--ro-bind', m.src, m.path];
    case 'proc-ro':
      return ['--ro-bind-try', m.src, m.path];
    case 'symlink':
      return ['--symlink', m.target, m.path];
    case 'proc':
      return ['--proc', m.path];
    case 'dev':
      return ['--dev', m.path];
    case 'tmpfs':
      // Anyone may write a /tmp (the plugin runs as another user than bwrap under root), within its size.
      return ['--perms', '1777', ...(m.size ? ['--size', String(m.size)] : []), '--tmpfs', m.path];
    case 'mask':
      return ['--tmpfs', m.path];
    case 'dir':
      return ['--perms', '0755', '--dir', m.path];
  }
}

/**
 * Where the hidden root shows inside: under every bind whose source (really) contains it, at the
 * matching path, and at its own path. Each place gets an empty read-only tmpfs over it.
 */
function maskPoints(
  binds: Array<{ path: string; src: string }>,
  hidden: string,
  real: (p: string) => string,
): string[] {
  const realHidden = real(hidden);
  const out = new Set<string>([hidden]);
  for (const b of binds) {
    const r = real(b.src);
    if (isInside(r, realHidden)) out.add(path.join(b.path, path.relative(r, realHidden)));
  }
  return [...out];
}

/**
 * The folders bwrap would make on the way to a mount point, made first and open to all: bwrap
 * run as root makes them owner-only, and the plugin, which then runs as another user, could not
 * pass through them to its own folder. Only folders in bwrap's own tmpfs (or a mask's): never one
 * inside a bind, which would be made on the host.
 */
function waypoints(mounts: Mount[]): Mount[] {
  const points = new Set(mounts.map((m) => m.path));
  // What a folder on the way can lie in: a bind (the host's folder, never made) or a tmpfs of
  // bwrap's (a mask, /tmp). The innermost decides: the data directory's mask inside a granted
  // parent folder is bwrap's, and the way through it to the plugin's own folder must be made.
  const holders = mounts.filter((m) => 'src' in m || m.kind === 'mask' || m.kind === 'tmpfs');
  const out = new Set<string>();
  for (const m of mounts) {
    for (let d = path.dirname(m.path); d !== '/'; d = path.dirname(d)) {
      if (points.has(d)) break;
      let holder: Mount | undefined;
      for (const h of holders)
        if (h.path !== d && isInside(h.path, d) && (!holder || h.path.length > holder.path.length)) holder = h;
      if (holder && 'src' in holder) break;
      out.add(d);
    }
  }
  return [...out].map((p): Mount => ({ kind: 'dir', path: p }));
}

/** Wraps a plan so that it runs inside the sandbox the policy describes. */
export function wrapInSandbox(plan: LaunchPlan, policy: SandboxPolicy): LaunchPlan {
  const real = policy.realPath ?? ((p: string) => p);
  const hiddenReal = real(policy.hiddenRoot);
  // A granted folder inside the data directory (its own data folder, another plugin's) would
  // defeat the mask: such grants are dropped; the plugin's own folders are added below.
  const outsideHidden = (p: string): boolean => !isInside(hiddenReal, real(p));
  const grants: Mount[] = [
    ...policy.writePaths.filter(outsideHidden).map((p): Mount => ({ kind: 'rw', path: p, src: p })),
    // Granted both ways (a folder setting and a grant of the same folder), it is written: the
    // person granted that; a read-only mount at the same path would win (the study's F2).
    ...policy.readPaths
      .filter((p) => outsideHidden(p) && !policy.writePaths.includes(p))
      .map((p): Mount => ({ kind: 'ro-grant', path: p, src: p })),
    ...policy.extraReadOnly.filter(outsideHidden).map((p): Mount => ({ kind: 'ro', path: p, src: p })),
  ];
  // Under a granted parent (a granted `/`) the host's own symlink is there already, and bwrap
  // refuses to make one over it.
  const underGrant = (p: string): boolean => grants.some((g) => 'src' in g && g.path !== p && isInside(g.path, p));
  const system: Mount[] = policy.system.flatMap((s): Mount[] => {
    if (s.symlink === undefined) return [{ kind: 'ro', path: s.path, src: s.path }];
    return underGrant(s.path) ? [] : [{ kind: 'symlink', path: s.path, target: s.symlink }];
  });
  const binds = [...grants, ...system].flatMap((m) => ('src' in m ? [{ path: m.path, src: m.src }] : []));
  // A mask where the plugin's own folder mounts would be covered by it, and made read-only.
  const masks = maskPoints(binds, policy.hiddenRoot, real).filter(
    (m) => m !== policy.pluginDir && m !== policy.dataDir,
  );
  const listed: Mount[] = [
    ...grants,
    ...system,
    { kind: 'proc', path: '/proc' },
    { kind: 'proc-ro', path: '/proc/sys', src: '/proc/sys' },
    ...(policy.procMasks ?? []).map((p): Mount => ({ kind: 'proc-ro', path: p, src: '/dev/null' })),
    { kind: 'dev', path: '/dev' },
    // A private, empty /tmp and /dev/shm: other programs' sockets and files there are not the
    // plugin's; each is RAM, so each has the size its limits give.
    { kind: 'tmpfs', path: '/tmp', ...(policy.limits ? { size: policy.limits.tmpBytes } : {}) },
    { kind: 'tmpfs', path: '/dev/shm', ...(policy.limits ? { size: policy.limits.tmpBytes } : {}) },
    ...masks.map((p): Mount => ({ kind: 'mask', path: p })),
    { kind: 'own-ro', path: policy.pluginDir, src: policy.pluginDir },
    // Scripts run by their real path (resolve.ts), so a plugin folder reached through a symlink
    // shows at both.
    ...(real(policy.pluginDir) !== policy.pluginDir
      ? [{ kind: 'own-ro', path: real(policy.pluginDir), src: policy.pluginDir } as const]
      : []),
    { kind: 'own-rw', path: policy.dataDir, src: policy.dataDir },
  ];
  const mounts = order(policy.root?.setpriv ? [...listed, ...waypoints(listed)] : listed);

  // The working directory must exist inside; a manifest's cwd always lies in the plugin folder.
  const visible = mounts.flatMap((m) => ('src' in m ? [m.path] : []));
  const cwd = visible.some((v) => isInside(v, plan.cwd)) ? plan.cwd : policy.pluginDir;
  // bwrap's own tmpfs at / and /dev would take whatever is written there, in RAM: read-only once
  // the mount points exist (unless the person granted `/` itself, which is then the host's).
  const rootGranted = grants.some((g) => 'src' in g && g.path === '/');
  const args = [
    ...NAMESPACE_FLAGS,
    ...capabilityFlags(policy.root),
    ...(policy.net ? [] : ['--unshare-net']),
    ...mounts.flatMap(flagsOf),
    // The masks are made read-only once the folders under them exist (bwrap creates mount points).
    ...masks.flatMap((p) => ['--remount-ro', p]),
    '--remount-ro',
    '/dev',
    ...(rootGranted ? [] : ['--remount-ro', '/']),
    '--chdir',
    cwd,
    '--',
    ...innerPrefix(policy),
    plan.file,
    ...plan.args,
  ];
  return {
    ...plan,
    file: policy.bwrap,
    args,
    // bwrap itself runs with exactly this environment: PID 1 inside is bwrap, and its
    // /proc/1/environ is readable there. HOME is the plugin's own writable folder, since the
    // user's home is not visible (programs that write dotfiles and caches keep working, per
    // plugin); TMPDIR is the private /tmp, since the host's may point where nothing is mounted.
    env: { ...plan.env, HOME: policy.dataDir, TMPDIR: '/tmp', ...identityEnv(policy.root, plan.env) },
    displayCommand: ['bwrap', `[sandbox: ${sandboxSummary(policy)}]`, '--', ...plan.displayCommand],
    sandbox: { active: true },
  };
}

/** What the sandbox allows, in a few words, for the command shown in messages and checks. */
export function sandboxSummary(policy: Pick<SandboxPolicy, 'net' | 'readPaths' | 'writePaths'>): string {
  const parts = [policy.net ? 'network' : 'no network'];
  if (policy.readPaths.length > 0) parts.push(`reads ${policy.readPaths.join(', ')}`);
  if (policy.writePaths.length > 0) parts.push(`writes ${policy.writePaths.join(', ')}`);
  return parts.join('; ');
}
