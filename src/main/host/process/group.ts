/**
 * Process groups: each plugin runs in a group of its own, so a stop reaches its grandchildren too.
 * The groups this process started are remembered until they are empty, and if the host itself
 * exits without stopping its plugins (a crash, process.exit), an exit hook kills them: no orphans.
 * A host that dies without running any hook (SIGKILL) leaves the unsandboxed groups to the reaper
 * (reaper.ts), and the sandboxed ones to bwrap's --die-with-parent. A sandboxed plugin's group
 * also holds bwrap's own processes, which its SIGTERM must miss.
 */
import { spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import { reapWithHost, releaseFromReaper } from './reaper';

const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Remembers a group until it is empty. `reap`: the reaper kills it if the host dies first (an
 * unsandboxed plugin; bwrap sees to a sandboxed one), after checking its leader's `start` time.
 */
export function trackGroup(pid: number | undefined, opts: { reap?: boolean; start?: string | null } = {}): void {
  if (pid === undefined || liveGroups.has(pid)) return;
  liveGroups.add(pid);
  if (opts.reap) reapWithHost(pid, opts.start ?? null);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const g of liveGroups) killGroup(g, 'SIGKILL');
    });
  }
}

/** Forgets a group, so its id is never signalled once the system reuses it. */
export function untrackGroup(pid: number | undefined): void {
  if (pid !== undefined && liveGroups.delete(pid)) releaseFromReaper(pid);
}

export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    // No process groups: taskkill /T walks the tree. There is no graceful SIGTERM equivalent.
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
    return;
  }
  try {
    // The group only: a plugin is always its group's leader (spawned detached), so when the group
    // is gone the same number may already name someone else's process, and must not be signalled.
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * SIGTERM to a sandboxed plugin (sandbox.ts): to every process of its group except bwrap's own
 * two, the monitor the host spawned (whose pid is the group's) and its child, the reaper that is
 * PID 1 inside. bwrap forwards no signals: a SIGTERM to the monitor would end it, and
 * --die-with-parent would turn that into SIGKILL for the plugin before it could finish handling
 * its own SIGTERM. The plugin's exit then ends the reaper and the monitor.
 */
export async function terminateSandboxed(pgid: number | undefined): Promise<void> {
  if (pgid === undefined) return;
  for (const p of await groupMembersLinux(pgid)) {
    if (p.pid === pgid || p.ppid === pgid) continue;
    try {
      process.kill(p.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

/**
 * bwrap exits with 128 + N when the plugin died of signal N: the exit as the plugin's own, so a
 * crash still reads "killed by SIGSEGV". (A plugin that exits with such a code on purpose reads
 * as signalled; no plugin protocol gives those codes a meaning.)
 */
export function unwrapSandboxExit(
  code: number | null,
  signal: NodeJS.Signals | null,
): { code: number | null; signal: NodeJS.Signals | null } {
  if (code === null || code <= 128 || code >= 128 + 65) return { code, signal };
  const name = Object.entries(os.constants.signals).find(([, n]) => n === code - 128)?.[0];
  return name ? { code: null, signal: name as NodeJS.Signals } : { code, signal };
}

/**
 * Whether a live (non-zombie) process is in the group. On Linux this reads /proc, because a
 * signal-0 probe also succeeds for zombies that init has not reaped yet, which would report
 * long-dead children as still running. Asynchronous: it runs after every plugin exit (every call
 * of a one-shot plugin), and a synchronous walk of /proc would stall the main thread each time.
 */
export async function groupAlive(pid: number | undefined): Promise<boolean> {
  if (pid === undefined) return false;
  // A signal-0 probe that finds no process at all (not even a zombie) settles it without /proc:
  // the usual answer once a plugin has exited. Reading every /proc/N/stat took tens of ms per
  // exit on a busy machine, three times for each call of a process-per-call plugin (rterm).
  if (!signalReaches(process.platform === 'win32' ? pid : -pid)) return false;
  if (process.platform === 'linux') return (await groupMembersLinux(pid, true)).length > 0;
  return true;
}

/** Whether a signal-0 probe finds the process (or, for a negative pid, any member of the group). */
function signalReaches(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (e) {
    // EPERM: something is there, only not ours to signal.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Member {
  pid: number;
  ppid: number;
}

/** The live members of a group (the first one only, with `first`), from /proc. */
async function groupMembersLinux(pgid: number, first = false): Promise<Member[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const out: Member[] = [];
  for (const e of entries) {
    if (e.charCodeAt(0) < 48 || e.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = await readFile(`/proc/${e}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name, which may itself contain spaces and parentheses: state, ppid, pgrp, …
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (rest[0] !== 'Z' && Number(rest[2]) === pgid) {
      out.push({ pid: Number(e), ppid: Number(rest[1]) });
      if (first) break;
    }
  }
  return out;
}
