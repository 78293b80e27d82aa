/**
 * The data directory belongs to one person: it is made 0700, and the files at its top level
 * (state.json, secrets.json, audit.log, models.json, conversations.sqlite and its -wal and -shm,
 * the store's owner file, the pid registry's folder) are readable by their owner only. A
 * directory made by an older Plugboard, or by hand, with looser modes is tightened at every start,
 * and each change is reported, so a person sees that it was open before.
 *
 * Installed plugins' folders and the plugins' own data folders keep their modes (executables
 * stay executable): inside a 0700 directory nobody else reaches them anyway. Where file modes
 * mean nothing (Windows) this does nothing.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Group and other permission bits: none of them belongs on anything in the data directory. */
const OTHERS = 0o077;

/** Makes the data directory (0700) if missing; tightens it and its top-level files. Returns what it changed, in words. */
export function secureDataDir(root: string): string[] {
  if (process.platform === 'win32') return [];
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const notes: string[] = [];
  // A file in a directory only its owner can enter was never open to others: it is tightened
  // without a word (the conversation store makes its files with the default mode at each start).
  let report = true;
  const tighten = (p: string, isDir: boolean): void => {
    let mode: number;
    try {
      const st = lstatSync(p);
      // A link is never followed: its target is not the data directory's to change.
      if (st.isSymbolicLink() || (isDir ? !st.isDirectory() : !st.isFile())) return;
      mode = st.mode & 0o7777;
    } catch {
      return;
    }
    if ((mode & OTHERS) === 0) return;
    const next = isDir ? 0o700 : mode & 0o700 & ~0o111;
    try {
      chmodSync(p, next);
      if (report) notes.push(`${p} was readable by others (mode ${mode.toString(8)}); made ${next.toString(8)}`);
    } catch (e) {
      notes.push(
        `${p} is readable by others (mode ${mode.toString(8)}) and could not be changed: ${(e as Error).message}`,
      );
    }
  };
  tighten(root, true);
  report = notes.length > 0;
  let names: string[] = [];
  try {
    names = readdirSync(root);
  } catch {
    return notes;
  }
  for (const name of names) {
    const p = path.join(root, name);
    tighten(p, false);
    if (name === 'processes' || name === '.staging') tighten(p, true);
  }
  return notes;
}
