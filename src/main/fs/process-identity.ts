/**
 * Who a process is, beyond its pid: a pid is reused once its process is gone, so anything that
 * will signal a process it recorded earlier (the pid registry, the reaper, a claim on a file)
 * records its start time too, and checks it again before acting. On Linux the start time is
 * field 22 of /proc/<pid>/stat (clock ticks since boot), which with the boot id names one process
 * for good. Where there is no /proc (macOS, Windows) there is no start time to compare, and the
 * callers say what they do then.
 */
import { existsSync, readFileSync } from 'node:fs';

/** A process as it was recorded: pid, and where the system tells, its start time and the boot. */
export interface ProcessIdentity {
  pid: number;
  /** Clock ticks since boot, as /proc writes it. */
  start?: string;
  boot?: string;
}

export interface ProcStat {
  /** R, S, D, Z (zombie), X (dead), … */
  state: string;
  ppid: number;
  pgrp: number;
  start: string;
}

/** /proc/<pid>/stat, parsed; null when there is no such process (or no /proc). */
export function procStat(pid: number | string): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The name (field 2) is in parentheses and may itself hold spaces and parentheses: the fields
  // that matter come after the last ')', starting with field 3 (state).
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: f[0] ?? '?', ppid: Number(f[1]), pgrp: Number(f[2]), start: f[19] ?? '' };
}

export function hasProcFs(): boolean {
  return existsSync('/proc/self/stat');
}

/**
 * The start time of a live process. Null when there is no such process, or it has exited and
 * waits to be reaped (a zombie is nobody's any more); undefined when there is no /proc to ask.
 */
export function startTimeOf(pid: number): string | null | undefined {
  const st = procStat(pid);
  if (st) return st.state === 'Z' || st.state === 'X' ? null : st.start;
  return hasProcFs() ? null : undefined;
}

let boot: string | null | undefined;

/** This boot's id (start times count from the boot, so they compare only within one). */
export function bootId(): string | null {
  if (boot === undefined) {
    try {
      boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      boot = null;
    }
  }
  return boot;
}

/** The identity of a process now (this one by default), as far as the system tells. */
export function identityOf(pid: number = process.pid): ProcessIdentity {
  const start = startTimeOf(pid);
  const b = bootId();
  return { pid, ...(start ? { start } : {}), ...(b ? { boot: b } : {}) };
}

/**
 * Whether the recorded process is still the one running under its pid: same boot, same start
 * time. `unknown` where nothing can be compared (no /proc, or a record without a start time):
 * the caller decides what that means for it.
 */
export function stillRunning(rec: ProcessIdentity): boolean | 'unknown' {
  if (rec.boot !== undefined && bootId() !== null && rec.boot !== bootId()) return false;
  const now = startTimeOf(rec.pid);
  if (now === undefined || rec.start === undefined) return now === null ? false : 'unknown';
  return now === rec.start;
}
