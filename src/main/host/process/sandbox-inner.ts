/**
 * Who the plugin runs as inside its sandbox, and under which rlimits: the part of a sandboxed
 * command between bwrap and the plugin's own program. Pure, like sandbox.ts.
 *
 * Run as root, bwrap makes no user namespace, and a user namespace made by root maps the plugin
 * back to root outside: either way the plugin would own every root-owned file it can see
 * (/etc/shadow, /proc/sys/kernel/core_pattern, root's keyrings). So under root the plugin runs as
 * an unprivileged user (`nobody`), dropped to by util-linux's `setpriv` inside the sandbox after
 * bwrap has made its mounts: bwrap keeps only the capabilities setpriv needs for that
 * (CAP_SETUID, CAP_SETGID, CAP_SETPCAP), setpriv clears the bounding set and changes every user
 * and group id, which leaves the plugin no capability at all, and bwrap's no_new_privs keeps a
 * setuid program from giving any back.
 *
 * rlimits, where the plugin has no control group of its own (cgroups.ts), come from util-linux's
 * `prlimit`, inside the sandbox too: a process limit set outside would count every process of
 * the person's, since the kernel counts them per user.
 */
import type { PluginLimits } from './limits';

/** Running as root: the unprivileged user plugins run as, and the setpriv that drops to it. */
export interface RootMode {
  uid: number;
  gid: number;
  user: string;
  /** Absolute path of setpriv; null where it is missing (the plugin then stays root inside, capabilities dropped). */
  setpriv: string | null;
}

/** Programs from util-linux and coreutils the sandbox uses where present. */
export interface SandboxHelpers {
  prlimit: string | null;
  nice: string | null;
}

/** The rlimits of a plugin without a control group: the kernel holds each process to them. */
export interface Rlimits {
  /** Processes and threads of its user in its sandbox. */
  processes: number;
  /** Each process's data segment: a memory bomb in one process stops there. */
  memoryBytes: number;
  /** Niceness standing in for the CPU share (0 to 19). */
  nice: number;
}

/**
 * Where a launch has no control group, rlimits hold each process, and the watch the whole
 * (limit-watch.ts), stopping it once its processes together use its memory: each process's own
 * ceiling lies a quarter above, so that a bomb in one process is seen going over and named, not
 * only refused. None where a control group holds it.
 */
export function rlimitsOf(limits: PluginLimits, cgroup: unknown): Rlimits | undefined {
  if (cgroup) return undefined;
  return {
    processes: limits.processes,
    memoryBytes: Math.floor(limits.memoryBytes * 1.25),
    nice: niceOf(limits.cpuWeight),
  };
}

/** The niceness whose scheduling weight is nearest a CPU share: each step is a factor of 1.25. */
export function niceOf(cpuWeight: number): number {
  if (cpuWeight >= 100) return 0;
  return Math.min(19, Math.round(Math.log(100 / cpuWeight) / Math.log(1.25)));
}

/** Capability flags for bwrap: all dropped, but what setpriv needs when it drops root itself. */
export function capabilityFlags(root: RootMode | null | undefined): string[] {
  const flags = ['--cap-drop', 'ALL'];
  if (root?.setpriv) flags.push('--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP');
  return flags;
}

/**
 * The programs that run before the plugin's own inside the sandbox, each exec'ing the next:
 * prlimit (no file bigger than its data folder or its /tmp may hold; no core files; with no control group,
 * the process and memory limits too), nice, and setpriv under root.
 */
export function innerPrefix(opts: {
  root?: RootMode | null;
  helpers?: SandboxHelpers;
  limits?: PluginLimits;
  rlimits?: Rlimits;
}): string[] {
  const out: string[] = [];
  const { helpers, limits, rlimits, root } = opts;
  if (helpers?.prlimit && limits) {
    const set = (name: string, v: number): string => `--${name}=${v}:${v}`;
    // No file larger than the larger of its data folder and its /tmp may hold.
    out.push(helpers.prlimit, set('fsize', Math.max(limits.dataBytes, limits.tmpBytes)), set('core', 0));
    if (rlimits) out.push(set('nproc', rlimits.processes), set('data', rlimits.memoryBytes));
    out.push('--');
  }
  if (helpers?.nice && rlimits && rlimits.nice > 0) out.push(helpers.nice, '-n', String(rlimits.nice));
  if (root?.setpriv)
    out.push(
      root.setpriv,
      `--reuid=${root.uid}`,
      `--regid=${root.gid}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--',
    );
  return out;
}

/** The environment names of who runs, as the plugin will be under root. */
export function identityEnv(
  root: RootMode | null | undefined,
  env: Readonly<Record<string, string>> = {},
): Record<string, string> {
  if (!root?.setpriv) return {};
  // git refuses a repository another user owns ("detected dubious ownership"), and under root
  // the person's repositories are root's, not the plugin user's: mcp-server-git failed every call
  // on a granted repository. The sandbox shows the plugin only what it was granted, so every
  // folder it can see is one the person gave it. Added after git settings of its own, if any.
  const own = Number(env.GIT_CONFIG_COUNT ?? 0);
  const at = Number.isInteger(own) && own >= 0 ? own : 0;
  return {
    USER: root.user,
    LOGNAME: root.user,
    GIT_CONFIG_COUNT: String(at + 1),
    [`GIT_CONFIG_KEY_${at}`]: 'safe.directory',
    [`GIT_CONFIG_VALUE_${at}`]: '*',
  };
}
