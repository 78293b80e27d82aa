/**
 * One Plugboard process owns a data directory's conversations at a time. SQLite itself would let
 * two processes share the file, but two Plugboards on one directory would each run the same
 * plugins against the same settings and show each other's conversations half-written; the second
 * is refused with one line that says what to do.
 *
 * The owner writes `<store>.owner`: its pid, and on Linux the process's start time (field 22 of
 * /proc/<pid>/stat, clock ticks since boot) with the boot id. A later start checks the recorded
 * process the way a reaper would: a pid that is not running, that runs since another boot, or
 * whose start time differs (the pid was reused by another program) is a stale claim and is taken
 * over, so a crash never blocks the next start. An owner file of an older Plugboard holds only a
 * pid: that process counts as the owner only if it was already running when the file was written.
 * Elsewhere (macOS, Windows) a running pid is taken as the owner: there is no /proc to tell.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { failure, FailureError, type Failure } from '../../../shared/failures';
import { withFileLock } from '../../fs';

/** Thrown when the store cannot be opened; its message is one line a person can act on. */
export class StoreOpenError extends FailureError {
  constructor(failure: Failure) {
    super(failure);
    this.name = 'StoreOpenError';
  }
}

const OwnerRecord = z.object({
  pid: z.number().int().positive(),
  start: z.string().optional(),
  boot: z.string().optional(),
});
type OwnerRecord = z.infer<typeof OwnerRecord>;

/**
 * What the kernel says of a live process: its start in clock ticks since boot (field 22 of
 * /proc/<pid>/stat). Null when there is no such process, when it has exited and waits to be
 * reaped (a zombie owns nothing), or when there is no /proc to ask (`undefined`).
 */
export function processStart(pid: number): string | null | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return existsSync('/proc/self/stat') ? null : undefined;
  }
  // The name (field 2) is in parentheses and may hold spaces and parentheses itself.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return null;
  return fields[19] ?? null; // the rest starts at field 3: field 22 is the 20th
}

function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Milliseconds since the epoch of a start time in ticks since boot, or null. */
function startedAtMs(ticks: string): number | null {
  try {
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
    // USER_HZ, the unit of /proc's start times, is 100 on every Linux architecture Node runs on.
    return btime ? Number(btime) * 1000 + Number(ticks) * 10 : null;
  } catch {
    return null;
  }
}

function readOwner(file: string): OwnerRecord | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
  if (/^\d+$/.test(text)) return { pid: Number(text) }; // an older Plugboard's file: a bare pid
  try {
    const r = OwnerRecord.safeParse(JSON.parse(text));
    return r.success ? r.data : null;
  } catch {
    return null; // unreadable: nobody can be shown to own the store
  }
}

/** Whether the process a record names is still the one that wrote it. */
export function ownerAlive(rec: OwnerRecord, file: string): boolean {
  const now = processStart(rec.pid);
  if (now === undefined) return isRunning(rec.pid); // no /proc: a running pid is all there is to go on
  if (now === null) return false;
  if (rec.start !== undefined) return rec.start === now && (rec.boot === undefined || rec.boot === bootId());
  // A bare pid: the process must predate the file (1 s of slack for the clock's rounding).
  const started = startedAtMs(now);
  return started === null || started <= statSync(file).mtimeMs + 1000;
}

/** Becomes the one process using the store at `storeFile`, or throws a StoreOpenError naming the one that is. */
export async function claim(storeFile: string): Promise<void> {
  const owner = `${storeFile}.owner`;
  const dir = path.dirname(storeFile);
  try {
    await withFileLock(owner, () => {
      const rec = existsSync(owner) ? readOwner(owner) : null;
      if (rec && rec.pid !== process.pid && ownerAlive(rec, owner)) {
        throw new StoreOpenError(
          failure(
            'invalid_state',
            `the conversations in ${dir} are open in another Plugboard (process ${rec.pid}): close it, or give this one another data directory. ` +
              `If no Plugboard is running, delete ${owner}.`,
          ),
        );
      }
      mkdirSync(dir, { recursive: true });
      const me: OwnerRecord = {
        pid: process.pid,
        start: processStart(process.pid) ?? undefined,
        boot: bootId() ?? undefined,
      };
      writeFileSync(owner, `${JSON.stringify(me)}\n`);
    });
  } catch (e) {
    if (e instanceof StoreOpenError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOCKED') {
      throw new StoreOpenError(
        failure(
          'invalid_state',
          `another Plugboard is opening the conversations in ${dir} right now: wait for it to finish starting, then try again.`,
        ),
      );
    }
    throw new StoreOpenError(
      failure(
        'io_error',
        `cannot claim the conversations in ${dir} (${(e as Error).message}): check that the folder is writable.`,
      ),
    );
  }
}

/** Gives the store up, if this process still holds it. */
export function release(storeFile: string): void {
  const owner = `${storeFile}.owner`;
  if (readOwner(owner)?.pid === process.pid) rmSync(owner, { force: true });
}
