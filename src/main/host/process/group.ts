/**
 * A plugin's process group: signalling all of it, telling whether any of it still runs, and the
 * SIGTERM of a sandboxed plugin, which must miss bwrap's own processes.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    // No process groups: taskkill /T walks the tree. There is no graceful SIGTERM equivalent.
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * SIGTERM to a sandboxed plugin (sandbox.ts): to every process of its group except bwrap's own
 * two, the monitor the host spawned (whose pid is the group's) and its child, the reaper that is
 * PID 1 inside. bwrap forwards no signals: a SIGTERM to the monitor would end it, and
 * --die-with-parent would turn that into SIGKILL for the plugin before it could finish handling
 * its own SIGTERM. The plugin's exit then ends the reaper and the monitor.
 */
export function terminateSandboxed(pgid: number | undefined): void {
  if (pgid === undefined) return;
  for (const p of groupMembersLinux(pgid)) {
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
export function unwrapSandboxExit(code: number | null, signal: NodeJS.Signals | null): { code: number | null; signal: NodeJS.Signals | null } {
  if (code === null || code <= 128 || code >= 128 + 65) return { code, signal };
  const name = Object.entries(os.constants.signals).find(([, n]) => n === code - 128)?.[0];
  return name ? { code: null, signal: name as NodeJS.Signals } : { code, signal };
}

/**
 * True while a live (non-zombie) process is in the group. On Linux this reads /proc, because a
 * signal-0 probe also succeeds for zombies that init has not reaped yet, which would report
 * long-dead children as still running.
 */
export function groupAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  if (process.platform === 'linux') return groupMembersLinux(pid).length > 0;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Member {
  pid: number;
  ppid: number;
}

function groupMembersLinux(pgid: number): Member[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: Member[] = [];
  for (const e of entries) {
    if (e.charCodeAt(0) < 48 || e.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${e}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name, which may itself contain spaces and parentheses:
    // state, ppid, pgrp, …
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (rest[0] !== 'Z' && Number(rest[2]) === pgid) out.push({ pid: Number(e), ppid: Number(rest[1]) });
  }
  return out;
}
