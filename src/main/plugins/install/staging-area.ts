/**
 * Folders in the staging area (`<data>/.staging`): `install-*` while a package is unpacked and
 * checked, `previous-*` holding the old version during an upgrade, `removing-*` during an
 * uninstall. Each names the process working in it (`.owner.json`: pid and start time), so a start
 * after a kill can tell a folder someone is still using from one left behind, and clean up only
 * the latter: 77 MiB of unpacked bundles after ten killed installs otherwise stay forever.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { identityOf, stillRunning } from '../../fs';
import type { DataPaths } from '../data-paths';

const OWNER_FILE = '.owner.json';
const Owner = z.object({ pid: z.number().int().positive(), start: z.string().optional(), boot: z.string().optional() });

/**
 * A folder without an owner (made by an older Plugboard, or one killed between making it and
 * naming itself) is left for this long, in case an older Plugboard is still using it.
 */
export const UNOWNED_STALE_MS = 60 * 60 * 1000;

/** A fresh folder in the staging area, `<prefix>-XXXXXX`, owned by this process. */
export function makeStagingArea(paths: DataPaths, prefix: 'install' | 'previous' | 'removing'): string {
  mkdirSync(paths.staging, { recursive: true, mode: 0o700 });
  const area = mkdtempSync(path.join(paths.staging, `${prefix}-`));
  writeFileSync(path.join(area, OWNER_FILE), `${JSON.stringify(identityOf())}\n`, { mode: 0o600 });
  return area;
}

function abandoned(area: string, now: number): boolean {
  let owner: z.infer<typeof Owner> | null = null;
  try {
    const r = Owner.safeParse(JSON.parse(readFileSync(path.join(area, OWNER_FILE), 'utf8')));
    owner = r.success ? r.data : null;
  } catch {
    owner = null;
  }
  const running = owner ? stillRunning(owner) : 'unknown';
  if (running !== 'unknown') return !running;
  try {
    return now - statSync(area).mtimeMs > UNOWNED_STALE_MS;
  } catch {
    return false;
  }
}

/**
 * Removes what killed installs, upgrades and uninstalls left in the staging area. An upgrade
 * killed after it moved the old version aside, but before the new one was in place, left the
 * plugin with no folder: the old version goes back. Returns what it did, in words.
 */
export function cleanStaleStaging(paths: DataPaths, now = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(paths.staging);
  } catch {
    return [];
  }
  const notes: string[] = [];
  for (const name of names) {
    const area = path.join(paths.staging, name);
    if (!/^(install|previous|removing)-/.test(name) || !abandoned(area, now)) continue;
    let keep = false;
    if (name.startsWith('previous-')) {
      for (const id of readdirSync(area).filter((n) => n !== OWNER_FILE)) {
        if (existsSync(paths.plugin(id))) continue;
        try {
          mkdirSync(paths.plugins, { recursive: true });
          renameSync(path.join(area, id), paths.plugin(id));
          notes.push(`put ${id} back: an upgrade was stopped halfway, and its previous version is installed again`);
        } catch (e) {
          // The only copy of it: the folder stays until it can be put back.
          notes.push(`could not put ${id} back from ${area}: ${(e as Error).message}`);
          keep = true;
        }
      }
    }
    if (keep) continue;
    try {
      rmSync(area, { recursive: true, force: true });
      notes.push(`removed ${area}, left by an install or removal that was stopped`);
    } catch (e) {
      notes.push(`could not remove ${area}: ${(e as Error).message}`);
    }
  }
  return notes;
}
