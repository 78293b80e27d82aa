/**
 * Per-plugin control groups, where this computer lets Plugboard make them: the kernel then holds
 * a plugin's processes, memory and CPU share together, whatever it forks (limits.ts says what).
 *
 * - cgroup v2: a group is made under a parent with the memory and pids controllers given to its
 *   children: `$PLUGBOARD_CGROUP` (a delegated group a service or `systemd-run --user -p
 *   Delegate=yes` made for Plugboard), or Plugboard's own group when it already hands them down,
 *   or when Plugboard is alone in it (it then moves itself into a `host` leaf and hands them down
 *   itself, as the kernel's no-internal-processes rule asks).
 * - cgroup v1 (the memory, pids and cpu hierarchies mounted apart, as on older systems and many
 *   containers): a group in each, under Plugboard's own, where they are writable (root).
 * - Otherwise none, and the limits fall back to rlimits and tmpfs sizes (sandbox-probe.ts).
 *
 * The plugin joins its groups before bwrap starts (a `sh` that writes its own pid into each
 * `cgroup.procs` and then execs bwrap), so nothing it forks is ever outside them.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CgroupBackend, LaunchLimits, LimitName, PluginLimits } from './limits';

export type { CgroupBackend } from './limits';

interface Mount {
  point: string;
  type: string;
  options: string[];
}

function read(p: string): string | null {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return null;
  }
}

function mounts(): Mount[] {
  const out: Mount[] = [];
  for (const line of (read('/proc/self/mountinfo') ?? '').split('\n')) {
    const [pre, post] = line.split(' - ');
    if (!pre || !post) continue;
    const point = pre.split(' ')[4];
    const [type, , superOpts] = post.split(' ');
    if (point && type) out.push({ point: point.replace(/\\040/g, ' '), type, options: (superOpts ?? '').split(',') });
  }
  return out;
}

/** This process's group in each hierarchy: `''` for v2, the controller list for v1. */
function ownGroups(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of (read('/proc/self/cgroup') ?? '').split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line);
    if (m) for (const c of (m[1] as string).split(',')) out.set(c, m[2] as string);
  }
  return out;
}

/** A parent we can write children into, tried by making and removing one. */
function writable(dir: string): boolean {
  const probe = path.join(dir, `plugboard-probe-${process.pid}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

function v2Parent(mount: string, own: string): { parent: string; cpu: boolean } | string {
  const wanted = ['memory', 'pids'];
  const given = process.env.PLUGBOARD_CGROUP;
  const base = given ? path.join(mount, given.replace(/^\/sys\/fs\/cgroup/, '')) : path.join(mount, own);
  const controllers = (read(path.join(base, 'cgroup.controllers')) ?? '').trim().split(/\s+/);
  if (!wanted.every((c) => controllers.includes(c)))
    return `cgroup v2 gives ${base} no ${wanted.filter((c) => !controllers.includes(c)).join(' or ')} controller`;
  const handed = () => (read(path.join(base, 'cgroup.subtree_control')) ?? '').trim().split(/\s+/);
  const cpu = controllers.includes('cpu');
  if (wanted.every((c) => handed().includes(c)))
    return writable(base) ? { parent: base, cpu: cpu && handed().includes('cpu') } : `${base} is not writable`;
  // Alone in our own group: move into a leaf and hand the controllers down ourselves.
  const procs = (read(path.join(base, 'cgroup.procs')) ?? '').trim().split(/\s+/).filter(Boolean);
  if (given || procs.some((p) => Number(p) !== process.pid))
    return `cgroup v2: ${base} holds other processes, so Plugboard cannot hand its controllers to groups of its own (run Plugboard in a delegated group: systemd-run --user -p Delegate=yes, or set PLUGBOARD_CGROUP)`;
  try {
    const leaf = path.join(base, 'host');
    mkdirSync(leaf, { recursive: true });
    writeFileSync(path.join(leaf, 'cgroup.procs'), String(process.pid));
    writeFileSync(
      path.join(base, 'cgroup.subtree_control'),
      [...wanted, ...(cpu ? ['cpu'] : [])].map((c) => `+${c}`).join(' '),
    );
    return { parent: base, cpu };
  } catch (e) {
    return `cgroup v2: could not hand the controllers of ${base} down (${(e as Error).message})`;
  }
}

/** Which cgroups this process may make for its plugins, or why none. */
export function probeCgroups(): CgroupBackend | { reason: string } {
  const all = mounts();
  const own = ownGroups();
  const v1 = (c: string) => all.find((m) => m.type === 'cgroup' && m.options.includes(c));
  const [memory, pids, cpu] = [v1('memory'), v1('pids'), v1('cpu')];
  if (memory && pids) {
    const dir = (m: Mount, c: string) => path.join(m.point, own.get(c) ?? '/');
    const parents = { memory: dir(memory, 'memory'), pids: dir(pids, 'pids') };
    if (!writable(parents.memory) || !writable(parents.pids))
      return { reason: `cgroup v1: ${parents.memory} and ${parents.pids} are not writable here (they are, as root)` };
    const cpuDir = cpu ? dir(cpu, 'cpu') : null;
    return { kind: 'cgroup1', ...parents, cpu: cpuDir && writable(cpuDir) ? cpuDir : null };
  }
  const v2 = all.find((m) => m.type === 'cgroup2');
  if (!v2) return { reason: 'no cgroup file system is mounted' };
  const r = v2Parent(v2.point, own.get('') ?? '/');
  return typeof r === 'string' ? { reason: r } : { kind: 'cgroup2', ...r };
}

let exitHook = false;

/** This process's own level (`plugboard-<pid>`) goes when it exits; its plugins' groups went before. */
function removeOursAtExit(backend: CgroupBackend): void {
  if (exitHook) return;
  exitHook = true;
  const parents = backend.kind === 'cgroup2' ? [backend.parent] : [backend.memory, backend.pids, backend.cpu];
  process.once('exit', () => {
    for (const p of parents) {
      if (!p) continue;
      try {
        rmdirSync(path.join(p, `plugboard-${process.pid}`));
      } catch {
        // a plugin's group still there (the sweep of the next Plugboard takes it)
      }
    }
  });
}

/** The groups of one plugin launch. */
export class PluginCgroup {
  private constructor(
    private readonly backend: CgroupBackend,
    /** Each group's folder (one for v2; memory, pids and maybe cpu for v1). */
    readonly dirs: string[],
  ) {}

  /** Makes the groups of one launch, limits written; null when they cannot be made. */
  static create(backend: CgroupBackend, name: string, limits: PluginLimits): PluginCgroup | null {
    const leaf = path.join(`plugboard-${process.pid}`, name);
    removeOursAtExit(backend);
    try {
      if (backend.kind === 'cgroup2') {
        const dir = path.join(backend.parent, leaf);
        mkdirSync(dir, { recursive: true });
        const parentOfOurs = path.dirname(dir);
        // Our own level hands the controllers on to each plugin's group.
        writeFileSync(
          path.join(parentOfOurs, 'cgroup.subtree_control'),
          ['+memory', '+pids', ...(backend.cpu ? ['+cpu'] : [])].join(' '),
        );
        writeFileSync(path.join(dir, 'memory.max'), String(limits.memoryBytes));
        if (existsSync(path.join(dir, 'memory.swap.max'))) writeFileSync(path.join(dir, 'memory.swap.max'), '0');
        writeFileSync(path.join(dir, 'pids.max'), String(limits.processes));
        if (backend.cpu) writeFileSync(path.join(dir, 'cpu.weight'), String(limits.cpuWeight));
        return new PluginCgroup(backend, [dir]);
      }
      const memory = path.join(backend.memory, leaf);
      const pids = path.join(backend.pids, leaf);
      const cpu = backend.cpu ? path.join(backend.cpu, leaf) : null;
      for (const d of [memory, pids, cpu]) if (d) mkdirSync(d, { recursive: true });
      writeFileSync(path.join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
      // With swap accounting, swap counts too: a limited plugin is stopped, not swapped out.
      const memsw = path.join(memory, 'memory.memsw.limit_in_bytes');
      if (existsSync(memsw)) writeFileSync(memsw, String(limits.memoryBytes));
      writeFileSync(path.join(pids, 'pids.max'), String(limits.processes));
      // cpu.shares: 1024 is any program's, as cpu.weight's 100 is.
      if (cpu)
        writeFileSync(path.join(cpu, 'cpu.shares'), String(Math.max(2, Math.round((limits.cpuWeight * 1024) / 100))));
      return new PluginCgroup(backend, [memory, pids, ...(cpu ? [cpu] : [])]);
    } catch {
      return null;
    }
  }

  /** The `cgroup.procs` files a process writes its pid into to join. */
  get procsFiles(): string[] {
    return this.dirs.map((d) => path.join(d, 'cgroup.procs'));
  }

  private file(kind: 'memory' | 'pids', v2: string, v1: string): string | null {
    const dir = this.backend.kind === 'cgroup2' ? this.dirs[0] : this.dirs[kind === 'memory' ? 0 : 1];
    return dir ? read(path.join(dir, this.backend.kind === 'cgroup2' ? v2 : v1)) : null;
  }

  /** Memory in use and processes running, as the kernel counts them. */
  usage(): { memoryBytes: number | null; processes: number | null } {
    const mem = this.file('memory', 'memory.current', 'memory.usage_in_bytes');
    const pids = this.file('pids', 'pids.current', 'pids.current');
    return { memoryBytes: mem === null ? null : Number(mem), processes: pids === null ? null : Number(pids) };
  }

  /** The limit the kernel enforced on this group, if any: an OOM kill, or a fork refused at the max. */
  breach(): LimitName | null {
    const events = this.file('memory', 'memory.events', 'memory.oom_control') ?? '';
    if (Number(/^oom_kill (\d+)/m.exec(events)?.[1] ?? 0) > 0) return 'memoryBytes';
    const pids = this.file('pids', 'pids.events', 'pids.events') ?? '';
    if (Number(/^max (\d+)/m.exec(pids)?.[1] ?? 0) > 0) return 'processes';
    return null;
  }

  /** Removes the groups once empty (a group with processes in it cannot be removed; they are killed first). */
  remove(): void {
    for (const d of this.dirs) {
      try {
        // Anything left (the sandbox dies with its monitor, but to be sure) is killed first.
        if (existsSync(path.join(d, 'cgroup.kill'))) appendFileSync(path.join(d, 'cgroup.kill'), '1');
        rmdirSync(d);
      } catch {
        // Still emptying: the next sweep takes it.
      }
    }
  }
}

/** Removes the groups of Plugboards that are gone (a crash leaves its empty groups behind). */
export function sweepCgroups(backend: CgroupBackend): void {
  const parents = backend.kind === 'cgroup2' ? [backend.parent] : [backend.memory, backend.pids, backend.cpu];
  for (const parent of parents) {
    if (!parent) continue;
    let names: string[];
    try {
      names = readdirSync(parent).filter((n) => /^plugboard-\d+$/.test(n));
    } catch {
      continue;
    }
    for (const n of names) {
      const pid = Number(n.slice('plugboard-'.length));
      if (pid === process.pid || existsSync(`/proc/${pid}`)) continue;
      const dir = path.join(parent, n);
      try {
        for (const child of readdirSync(dir, { withFileTypes: true }))
          if (child.isDirectory()) rmdirSync(path.join(dir, child.name));
        rmdirSync(dir);
      } catch {
        // in use or not ours to remove
      }
    }
  }
}

/**
 * Joins the control groups named before `--`, then becomes the command after it: the plugin's
 * sandbox starts inside its groups, so nothing it forks is ever outside them. A group that cannot
 * be joined stops the launch (exit 125) rather than let the plugin run unlimited.
 */
const JOIN = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"';
let launches = 0;

/**
 * A command that runs in control groups of its own, made now with the launch's limits: null where
 * the launch has none to get, false where they could not be made (the launch must not go ahead).
 */
export function inCgroup(
  limits: LaunchLimits,
  name: string | undefined,
  command: { file: string; args: string[] },
): { cgroup: PluginCgroup; file: string; args: string[] } | null | false {
  if (!limits.cgroup) return null;
  const cgroup = PluginCgroup.create(
    limits.cgroup,
    `${(name ?? 'plugin').replace(/[^\w.-]/g, '_')}-${++launches}`,
    limits.limits,
  );
  if (!cgroup) return false;
  return {
    cgroup,
    file: '/bin/sh',
    args: ['-c', JOIN, 'plugboard-cgroup', ...cgroup.procsFiles, '--', command.file, ...command.args],
  };
}
