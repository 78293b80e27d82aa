/**
 * The watch over one sandboxed plugin's limits (limits.ts): what it uses of each, for the panel,
 * and the limit it went over, for its failure. The kernel does the holding: a control group's
 * memory and pids limits (cgroups.ts), or rlimits per process (sandbox-inner.ts), and the sizes of
 * its /tmp and /dev/shm. What the kernel cannot hold is held here, by stopping the plugin: its
 * processes together over its memory where there is no control group, a data folder over its size
 * (a folder on the person's disk has no size of its own), and a /tmp that filled up.
 *
 * Each sandbox is a PID namespace: its processes are found by that, wherever they moved their
 * process group or session. One walk of /proc per tick serves every watch.
 */
import { lstat, readdir, readFile, readlink, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { failure, type Failure, type FailureDetails } from '../../../shared/failures';
import { formatSize, LIMIT_TITLES, type LimitName, type LimitUsage, type PluginLimits } from '../../../shared/limits';
import type { PluginCgroup } from './cgroups';
import { isInside } from '../../fs';

export interface LimitBreach {
  limit: LimitName;
  message: string;
}

/** The failure of a plugin stopped for going over a limit: its own code, the limit named. */
export function limitFailure(name: string, b: LimitBreach, details: FailureDetails): Failure {
  return failure('limit_exceeded', `${name} was stopped: ${b.message}`, { ...details, data: { limit: b.limit } });
}

const TICK_MS = 250;
const DATA_MIN_MS = 1000;
/** A data folder is walked at most this share of the time, however many names it holds. */
const DATA_DUTY = 1 / 20;
/**
 * Each name in a data folder counts as at least this much: an empty file or a directory takes no
 * block of its own, yet costs the disk an inode and the watch a step of its walk (red team L09:
 * 300,000 empty files counted as nothing and cost the host 14 s of CPU in 42).
 */
export const NAME_MIN_BYTES = 4096;

/** When to walk a data folder again, after a walk that took `tookMs`. */
export function nextDataWalkMs(tookMs: number): number {
  return Math.max(DATA_MIN_MS, tookMs / DATA_DUTY);
}
/**
 * Out-of-memory messages of the runtimes plugins use, when a process met its rlimit and died of it
 * (V8's own line may be pushed out of the last lines by its stack, whose frames name it too).
 */
const OOM_SIGNS =
  /out of memory|OutOfMemory|ReportOOMFailure|MemoryError|Cannot allocate memory|std::bad_alloc|Allocation failed/i;

interface Member {
  rss: number;
  threads: number;
}

/** The processes of every PID namespace on the machine, by namespace, from one walk of /proc. */
async function namespaces(): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return out;
  }
  await Promise.all(
    entries
      .filter((e) => e.charCodeAt(0) >= 48 && e.charCodeAt(0) <= 57)
      .map(async (e) => {
        try {
          const ns = await readlink(`/proc/${e}/ns/pid`);
          const list = out.get(ns);
          if (list) list.push(Number(e));
          else out.set(ns, [Number(e)]);
        } catch {
          // gone, or not ours to look at
        }
      }),
  );
  return out;
}

let shared: Promise<Map<string, number[]>> | null = null;
let sharedAt = 0;

/** One walk per tick, whatever the number of watches. */
function namespacesNow(): Promise<Map<string, number[]>> {
  if (!shared || Date.now() - sharedAt > TICK_MS / 2) {
    sharedAt = Date.now();
    shared = namespaces();
  }
  return shared;
}

async function member(pid: number): Promise<Member | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const rss = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) * 1024;
    const threads = Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
    return { rss, threads };
  } catch {
    return null;
  }
}

/**
 * Disk use of a folder (its blocks, and at least NAME_MIN_BYTES a name), without following links;
 * the walk ends as soon as the total is past `stopAbove` (over the limit is over, whatever more).
 */
export async function diskUse(dir: string, stopAbove = Infinity): Promise<number> {
  let total = 0;
  const visit = async (p: string): Promise<void> => {
    if (total > stopAbove) return;
    let st;
    try {
      st = await lstat(p);
    } catch {
      return;
    }
    total += Math.max(st.blocks * 512, NAME_MIN_BYTES);
    if (!st.isDirectory()) return;
    let names: string[];
    try {
      names = await readdir(p);
    } catch {
      return;
    }
    for (const n of names) await visit(path.join(p, n));
  };
  await visit(dir);
  return total;
}

/**
 * Files of `dir` that were unlinked but are held open by `pids`: their blocks stay taken on the
 * disk while no name in the folder shows them (red team L05: 3 GiB held past a 2 GiB limit).
 */
async function heldUnlinked(pids: readonly number[], dir: string): Promise<number> {
  const seen = new Set<string>();
  let total = 0;
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      if (!link.endsWith(' (deleted)') || !isInside(dir, link.slice(0, -' (deleted)'.length))) continue;
      const st = await stat(`/proc/${pid}/fd/${fd}`).catch(() => null);
      if (!st || seen.has(`${st.dev}:${st.ino}`)) continue;
      seen.add(`${st.dev}:${st.ino}`);
      total += st.blocks * 512;
    }
  }
  return total;
}

export class LimitWatch {
  private usageNow: LimitUsage = { processes: null, memoryBytes: null, tmpBytes: null, dataBytes: null };
  private timer: NodeJS.Timeout | undefined;
  private dataTimer: NodeJS.Timeout | undefined;
  private ns: string | null = null;
  /** A process in the sandbox (its PID 1, bwrap's reaper), whose root is the sandbox's. */
  private inside: number | null = null;
  private breached: LimitBreach | null = null;
  private stopped = false;

  constructor(
    private readonly o: {
      /** The process Plugboard spawned (bwrap's monitor, outside the sandbox's PID namespace). */
      pid: number;
      limits: PluginLimits;
      dataDir: string;
      cgroup: PluginCgroup | null;
      /** Called once, when the plugin goes over a limit while it runs: it is then stopped. */
      onBreach(b: LimitBreach): void;
    },
  ) {
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.timer.unref();
    this.scheduleData(DATA_MIN_MS);
  }

  /** What it uses now, as last measured. */
  get usage(): LimitUsage {
    return this.usageNow;
  }

  private note(limit: LimitName, used: string): LimitBreach {
    const max = limit === 'processes' ? String(this.o.limits.processes) : formatSize(this.o.limits[limit]);
    this.breached ??= { limit, message: `it went over its ${LIMIT_TITLES[limit]} limit of ${max} (${used})` };
    return this.breached;
  }

  /** A limit gone over while it runs: noted once, and the owner stops the plugin. */
  private breach(limit: LimitName, used: string): void {
    if (this.breached || this.stopped) return;
    this.o.onBreach(this.note(limit, used));
  }

  /** The sandbox's PID namespace, from its PID 1, the child of the process Plugboard spawned. */
  private async findNamespace(): Promise<void> {
    const children = (await readFile(`/proc/${this.o.pid}/task/${this.o.pid}/children`, 'utf8').catch(() => ''))
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    const own = await readlink(`/proc/${this.o.pid}/ns/pid`).catch(() => null);
    for (const c of children) {
      const ns = await readlink(`/proc/${c}/ns/pid`).catch(() => null);
      if (ns && ns !== own) [this.ns, this.inside] = [ns, Number(c)];
    }
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    if (!this.ns) await this.findNamespace();
    const { limits, cgroup } = this.o;
    if (cgroup) {
      const u = cgroup.usage();
      this.usageNow = { ...this.usageNow, ...u };
      const b = cgroup.breach();
      // A fork refused at the max: a fork bomb, or a plugin that cannot go on as it meant to.
      if (b === 'processes') this.breach('processes', 'a new process was refused at the limit');
    } else if (this.ns) {
      const pids = (await namespacesNow()).get(this.ns) ?? [];
      const members = (await Promise.all(pids.map(member))).filter((m): m is Member => m !== null);
      const memory = members.reduce((a, m) => a + m.rss, 0);
      const tasks = members.reduce((a, m) => a + m.threads, 0);
      this.usageNow = { ...this.usageNow, memoryBytes: memory, processes: tasks };
      if (memory >= limits.memoryBytes) this.breach('memoryBytes', `its processes used ${formatSize(memory)}`);
      // The kernel refuses the task past the limit; the one before it is bwrap's own reaper.
      else if (tasks >= limits.processes - 1) this.breach('processes', `${tasks} processes and threads`);
    }
    if (this.inside !== null) {
      let used = 0;
      for (const where of ['tmp', 'dev/shm']) {
        const s = await statfs(`/proc/${this.inside}/root/${where}`).catch(() => null);
        if (!s) continue;
        used += (s.blocks - s.bfree) * s.bsize;
        if (s.blocks > 0 && s.bavail === 0) this.breach('tmpBytes', `/${where} is full`);
      }
      this.usageNow = { ...this.usageNow, tmpBytes: used };
    }
  }

  /** Its data folder's use: what its names hold, and what its processes hold open unlinked. */
  private async dataUse(): Promise<number> {
    const pids = this.ns ? ((await namespacesNow()).get(this.ns) ?? []) : [this.o.pid];
    const [named, held] = await Promise.all([
      diskUse(this.o.dataDir, this.o.limits.dataBytes),
      heldUnlinked(pids, this.o.dataDir),
    ]);
    return named + held;
  }

  private scheduleData(ms: number): void {
    this.dataTimer = setTimeout(() => {
      const t0 = performance.now();
      void this.dataUse().then((bytes) => {
        if (this.stopped) return;
        this.usageNow = { ...this.usageNow, dataBytes: bytes };
        if (bytes > this.o.limits.dataBytes) this.breach('dataBytes', `it holds ${formatSize(bytes)}`);
        // A large folder is measured less often: never more than a twentieth of the time.
        this.scheduleData(nextDataWalkMs(performance.now() - t0));
      });
    }, ms);
    this.dataTimer.unref();
  }

  /**
   * When the plugin has exited: the limit that ended it, if one did. The kernel's own verdicts
   * (an OOM kill in its control group), or, under rlimits, a process that died saying it ran out of
   * memory: its rlimit refused it (a bomb can reach it between two ticks, before its use is seen).
   */
  atExit(stderrTail: string[]): LimitBreach | null {
    if (this.breached) return this.breached;
    const b = this.o.cgroup?.breach();
    if (b === 'memoryBytes') return this.note('memoryBytes', 'the kernel stopped a process of it for memory');
    if (b === 'processes') return this.note('processes', 'a new process was refused at the limit');
    if (!this.o.cgroup && stderrTail.some((l) => OOM_SIGNS.test(l)))
      return this.note('memoryBytes', 'a process of it ran out of memory at its limit');
    return null;
  }

  dispose(): void {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.dataTimer);
    this.o.cgroup?.remove();
  }
}
