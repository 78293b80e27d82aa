/**
 * The pid registry: every plugin process a Plugboard starts is written down in its data directory
 * (pid, process group, start time from /proc, plugin id), in one small file per running host,
 * `<data>/processes/<pid>-<random>.json`, that names the host too. A host that ends normally
 * removes its file; one that was killed leaves it, and its plugins, when neither bwrap's
 * --die-with-parent nor the reaper could stop them (the reaper was killed too).
 *
 * At the next start, `sweepLeftovers` reads the files of hosts that are no longer running and
 * stops what they left: a recorded group is killed only when its leader is still the recorded
 * process (same boot, same start time), so a pid the system has given to another program since
 * is never signalled. A group whose leader is gone is left alone: its remaining members cannot be
 * told from a new group that reused the number (the reaper, which runs at the moment the host
 * dies, can tell; see reaper.ts). Without /proc (macOS) nothing can be verified and nothing is
 * killed.
 *
 * One file per host: hosts sharing a data directory (the app and the CLI) never write the same
 * file, so no lock is needed. Writes are a rename of a temporary file, without fsync: the file
 * only matters across a crash of the host, not of the machine (after a reboot no process of the
 * old boot is left, and the boot id says so).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { toDisposable, type IDisposable } from '../../../shared/lifecycle';
import { bootId, identityOf, procStat, startTimeOf, stillRunning, type ProcessIdentity } from '../../fs';
import { killGroup } from './group';

const Entry = z.object({
  pid: z.number().int().positive(),
  pgid: z.number().int().positive(),
  start: z.string().nullable(),
  plugin: z.string(),
});
export type ProcessEntry = z.infer<typeof Entry>;

const HostFile = z.object({
  host: z.object({ pid: z.number().int().positive(), start: z.string().optional(), boot: z.string().optional() }),
  processes: z.array(Entry),
});

/** Records a plugin process; disposing the result forgets it (its group is empty). */
export type RecordProcess = (pid: number, start: string | null) => IDisposable;

export class ProcessBook implements IDisposable {
  readonly file: string;
  private readonly host: ProcessIdentity = identityOf();
  private readonly entries = new Map<number, ProcessEntry>();
  private disposed = false;

  constructor(readonly dir: string) {
    this.file = path.join(dir, `${process.pid}-${randomBytes(4).toString('hex')}.json`);
  }

  /** A recorder for one plugin's processes, for its launch binding. */
  recorder(plugin: string): RecordProcess {
    return (pid, start) => {
      if (this.disposed) return toDisposable(() => {});
      this.entries.set(pid, { pid, pgid: pid, start, plugin });
      this.write();
      return toDisposable(() => {
        if (this.entries.get(pid)?.plugin !== plugin || this.disposed) return;
        this.entries.delete(pid);
        this.write();
      });
    };
  }

  get size(): number {
    return this.entries.size;
  }

  private write(): void {
    try {
      if (this.entries.size === 0) {
        rmSync(this.file, { force: true });
        return;
      }
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const tmp = `${this.file}.tmp`;
      writeFileSync(tmp, `${JSON.stringify({ host: this.host, processes: [...this.entries.values()] })}\n`, {
        mode: 0o600,
      });
      renameSync(tmp, this.file);
    } catch {
      // A full disk must not fail a launch: the reaper and --die-with-parent still stand, and the
      // next write (the next launch or exit) tries again.
    }
  }

  /** The host ended normally and its plugins with it: nothing to leave for the next start. */
  dispose(): void {
    this.disposed = true;
    this.entries.clear();
    rmSync(this.file, { force: true });
    rmSync(`${this.file}.tmp`, { force: true });
  }
}

export interface SweepResult {
  /** Groups that were still running and were killed. */
  stopped: ProcessEntry[];
  /** Recorded processes that are not the recorded ones any more (their pid was reused), left alone. */
  spared: ProcessEntry[];
}

const KILL_WAIT_MS = 2000;

/**
 * Stops what hosts that are no longer running left behind, and removes their files. Files of
 * running hosts (another Plugboard on the same data directory) are left as they are.
 */
export async function sweepLeftovers(dir: string, opts: { except?: string } = {}): Promise<SweepResult> {
  const out: SweepResult = { stopped: [], spared: [] };
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  const killed: ProcessEntry[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    if (file === opts.except || file === `${opts.except}.tmp`) continue;
    if (name.endsWith('.tmp')) {
      // A write cut short: the host that made it is judged by its own file.
      if (!names.includes(name.slice(0, -4))) rmSync(file, { force: true });
      continue;
    }
    if (!name.endsWith('.json')) continue;
    const rec = readHostFile(file);
    if (rec && stillRunning(rec.host) !== false) continue; // a live host (or one that cannot be told dead)
    // Start times count from the boot: those of another boot name nobody now.
    const sameBoot = rec !== null && rec.host.boot !== undefined && rec.host.boot === bootId();
    for (const e of rec?.processes ?? []) {
      if (sameBoot && isRecordedLeader(e)) {
        killGroup(e.pgid, 'SIGKILL');
        killed.push(e);
      } else if (procStat(e.pid)) out.spared.push(e);
    }
    rmSync(file, { force: true });
  }
  // Signals land asynchronously: answer once what was killed is gone, or the deadline passes.
  const until = Date.now() + KILL_WAIT_MS;
  while (killed.some((e) => startTimeOf(e.pid)) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  out.stopped.push(...killed);
  return out;
}

function readHostFile(file: string): z.infer<typeof HostFile> | null {
  try {
    const r = HostFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** The recorded process still runs under its pid, leads its group, and started when recorded. */
function isRecordedLeader(e: ProcessEntry): boolean {
  if (e.start === null) return false;
  const st = procStat(e.pid);
  return st !== null && st.state !== 'Z' && st.start === e.start && st.pgrp === e.pgid;
}
