/**
 * Small file primitives the registry relies on: atomic JSON writes (temp file, fsync, rename,
 * so a reader never sees half a file and a crash never leaves one) and a cross-process lock
 * (proper-lockfile: a lock directory with staleness detection) so two writers at once both win.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { failure, FailureError } from '../../shared/failures';

export function readJson<T>(file: string, fallback: T): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw e;
  }
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    throw new FailureError(
      failure(
        'invalid_input',
        `${file} is not valid JSON (${(e as Error).message}): fix it, or move it aside to start over with what it held (it is kept as it is until then)`,
      ),
    );
  }
}

/** `mode`: the data directory's files are its owner's alone (0600) unless the caller says otherwise. */
export function writeJsonAtomic(file: string, value: unknown, mode = 0o600): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const fd = openSync(tmp, 'w', mode);
  try {
    try {
      writeFileSync(fd, `${JSON.stringify(value, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    // A full disk or a failed rename leaves no temp file behind: the folder stays as it was.
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Runs `fn` holding the lock of `file` (created if missing). Waits for another holder. */
export async function withFileLock<T>(file: string, fn: () => T | Promise<T>): Promise<T> {
  mkdirSync(path.dirname(file), { recursive: true });
  const release = await lockfile.lock(file, {
    realpath: false,
    stale: 10_000,
    retries: { retries: 200, factor: 1.2, minTimeout: 5, maxTimeout: 100 },
  });
  try {
    return await fn();
  } finally {
    await release();
  }
}
