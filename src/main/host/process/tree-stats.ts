/**
 * CPU and memory of a plugin's own processes: the process Plugboard launched and everything it
 * started, without the sandbox's wrapper. In the sandbox the launched process is bubblewrap, which
 * forks once more to be the init of the plugin's PID namespace; both sit idle at about 2 MB while
 * the plugin works (issue 21: a plugin at 65% CPU and 167 MB showed "cpu 0.0% mem 1.9 MB"). So
 * the tree under the launched process is walked, the wrapper's processes are left out, and the
 * rest is summed.
 *
 * Read from /proc by hand: pidusage (used before) reads one pid at a time, fails the whole batch
 * when one of them has exited (in a tree of short-lived children, most polls), and knows nothing of
 * trees. Where there is no /proc (macOS, Windows: no sandbox there either), the launched process
 * alone is measured through pidusage.
 *
 * CPU is the share of one core over the time since the previous read of the same process (as
 * `top` shows it); a process seen for the first time is given its average since it started (as
 * `ps` shows it). Memory is the resident set (VmRSS), the figure `ps -o rss` shows.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';
import pidusage from 'pidusage';

/** Linux's USER_HZ: the unit of utime and stime in /proc/<pid>/stat, 100 on every architecture. */
const TICKS_PER_SECOND = 100;
/** Programs that only wrap the plugin: bubblewrap (outer process and the PID namespace's init). */
const WRAPPERS = new Set(['bwrap']);

export interface TreeStats {
  /** The plugin's own first process (in the sandbox: the one bubblewrap runs); the launched one otherwise. */
  pluginPid: number;
  /** How many of the plugin's processes were counted. */
  processes: number;
  /** Share of one core, summed over the processes (200 = two cores busy). */
  cpuPercent: number;
  memoryBytes: number;
}

interface ProcRead {
  pid: number;
  name: string;
  ticks: number;
  startTicks: number;
  rssBytes: number;
  children: number[];
}

/** The last CPU reading of each process, to measure the next interval against. */
const lastRead = new Map<number, { ticks: number; at: number; startTicks: number }>();

async function readProc(pid: number): Promise<ProcRead | null> {
  try {
    const [stat, status] = await Promise.all([
      readFile(`/proc/${pid}/stat`, 'utf8'),
      readFile(`/proc/${pid}/status`, 'utf8'),
    ]);
    // The name is in parentheses and may hold spaces or parentheses itself: fields follow the last ")".
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const f = stat.slice(close + 2).split(' ');
    // After the name: state(0) ppid(1) … utime(11) stime(12) … starttime(19).
    const ticks = Number(f[11]) + Number(f[12]);
    const rss = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return {
      pid,
      name,
      ticks,
      startTicks: Number(f[19]),
      rssBytes: rss ? Number(rss[1]) * 1024 : 0,
      children: await childrenOf(pid),
    };
  } catch {
    return null; // it exited meanwhile
  }
}

async function childrenOf(pid: number): Promise<number[]> {
  let tasks: string[];
  try {
    tasks = await readdir(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const t of tasks) {
    try {
      const text = await readFile(`/proc/${pid}/task/${t}/children`, 'utf8');
      for (const c of text.split(' ')) if (c.trim()) out.push(Number(c));
    } catch {
      // the thread ended
    }
  }
  return out;
}

async function uptimeSeconds(): Promise<number> {
  return Number((await readFile('/proc/uptime', 'utf8')).split(' ')[0]);
}

function cpuOf(p: ProcRead, now: number, uptime: number): number {
  const before = lastRead.get(p.pid);
  lastRead.set(p.pid, { ticks: p.ticks, at: now, startTicks: p.startTicks });
  // A pid reused by another process is a new process: its start time tells.
  if (before && before.startTicks === p.startTicks && now > before.at) {
    return ((p.ticks - before.ticks) / TICKS_PER_SECOND / ((now - before.at) / 1000)) * 100;
  }
  const alive = uptime - p.startTicks / TICKS_PER_SECOND;
  return alive > 0 ? (p.ticks / TICKS_PER_SECOND / alive) * 100 : 0;
}

/** Whether /proc describes processes here (Linux). */
async function hasProc(): Promise<boolean> {
  try {
    await readlink('/proc/self/exe');
    return true;
  } catch {
    return false;
  }
}

let procChecked: Promise<boolean> | null = null;

/** The figures of each launched process's tree; a process that has exited is left out. */
export async function treeStats(roots: number[]): Promise<Map<number, TreeStats>> {
  const out = new Map<number, TreeStats>();
  if (roots.length === 0) return out;
  procChecked ??= hasProc();
  if (!(await procChecked)) return rootsOnly(roots);
  const now = Date.now();
  const uptime = await uptimeSeconds();
  const seen = new Set<number>();
  await Promise.all(
    roots.map(async (root) => {
      const r = await measureTree(root, now, uptime, seen);
      if (r) out.set(root, r);
    }),
  );
  // Readings of processes that are gone would only grow.
  for (const pid of lastRead.keys()) if (!seen.has(pid)) lastRead.delete(pid);
  return out;
}

async function measureTree(root: number, now: number, uptime: number, seen: Set<number>): Promise<TreeStats | null> {
  const top = await readProc(root);
  if (!top) return null;
  let pluginPid: number | null = null;
  let processes = 0;
  let cpu = 0;
  let memory = 0;
  // Breadth first, so the plugin's first process is the shallowest one that is not a wrapper. A
  // wrapper is a wrapper's program at the top of the tree or right under another one: a plugin that
  // runs bubblewrap itself is still counted.
  let level: Array<{ p: ProcRead; wrapper: boolean }> = [{ p: top, wrapper: WRAPPERS.has(top.name) }];
  while (level.length > 0) {
    for (const { p, wrapper } of level) {
      seen.add(p.pid);
      const c = cpuOf(p, now, uptime);
      if (wrapper) continue;
      pluginPid ??= p.pid;
      processes++;
      cpu += c;
      memory += p.rssBytes;
    }
    const next = await Promise.all(
      level.flatMap(({ p, wrapper }) =>
        p.children.map(async (pid) => {
          const c = await readProc(pid);
          return c && { p: c, wrapper: wrapper && WRAPPERS.has(c.name) };
        }),
      ),
    );
    level = next.filter((n) => n !== null);
  }
  return {
    pluginPid: pluginPid ?? root,
    processes,
    cpuPercent: Math.round(cpu * 10) / 10,
    memoryBytes: memory,
  };
}

async function rootsOnly(roots: number[]): Promise<Map<number, TreeStats>> {
  const out = new Map<number, TreeStats>();
  let usage: Record<string, { cpu: number; memory: number }>;
  try {
    usage = (await pidusage(roots)) as Record<string, { cpu: number; memory: number }>;
  } catch {
    return out; // a process exited between the list and the read: the next poll catches up
  }
  for (const pid of roots) {
    const u = usage[String(pid)];
    if (u)
      out.set(pid, { pluginPid: pid, processes: 1, cpuPercent: Math.round(u.cpu * 10) / 10, memoryBytes: u.memory });
  }
  return out;
}
