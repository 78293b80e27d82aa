/**
 * Finds the processes this test worker's plugins started (and their children), to prove none is
 * left behind. Every plugin a test host starts carries PLUGBOARD_TEST_RUN=<worker pid> in its
 * environment, which children inherit; /proc tells which live processes carry it. Reading /proc
 * keeps workers that run in parallel from seeing each other's plugins.
 */
import { readdirSync, readFileSync } from 'node:fs';

export const TEST_RUN_MARK = `PLUGBOARD_TEST_RUN=${process.pid}`;

export interface Proc {
  pid: number;
  args: string;
}

/** Running, and not a zombie waiting for init to reap it. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export function pluginProcesses(): Proc[] {
  const out: Proc[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    const pid = Number(e);
    if (pid === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${e}/environ`, 'utf8').split('\0');
      if (!env.includes(TEST_RUN_MARK) || !isAlive(pid)) continue;
      out.push({ pid, args: readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0').join(' ').trim() });
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** Waits (up to `ms`) until no test plugin process runs; returns the ones still running. */
export async function leftovers(ms = 3000, ignore: (p: Proc) => boolean = () => false): Promise<Proc[]> {
  const end = Date.now() + ms;
  for (;;) {
    const procs = pluginProcesses().filter((p) => !ignore(p));
    if (procs.length === 0 || Date.now() > end) return procs;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until a process is gone (or `ms` pass); returns whether it is gone. */
export async function gone(pid: number, ms = 2000): Promise<boolean> {
  const end = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
