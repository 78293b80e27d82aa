/**
 * The version an upgrade replaced, kept for a one-step rollback: `<data>/previous/<id>/` holds its
 * plugin folder (`plugin/`) and its install record (`install.json`: the `installed` entry of
 * state.json it had, with when it was replaced). Every upgrade keeps the version it replaces
 * (the one kept before is dropped); an uninstall removes it with the plugin.
 *
 * A rollback swaps the two: the installed version goes aside (into the staging area, which puts it
 * back at the next start if the rollback is cut short before the previous one is in place), the
 * previous one moves into `plugins/<id>`, and the one taken out becomes the previous, so a second
 * rollback returns to it. The install records are swapped the same way in state.json; settings,
 * grants and exposure stay as they are.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { failure, type Outcome } from '../../../shared/failures';
import type { DataPaths } from '../data-paths';
import type { StateStore } from '../registry/state';
import type { InstallRecord } from './pinned';
import { makeStagingArea } from './staging-area';

export interface PreviousVersion {
  dir: string;
  record: InstallRecord;
  replacedAt: string;
}

const RECORD = 'install.json';

/** Keeps `folder` (taken out of `plugins/<id>` by an upgrade) as the previous version of `id`. */
export function keepPrevious(paths: DataPaths, id: string, folder: string, record: InstallRecord): void {
  const root = paths.previous(id);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(root, RECORD), `${JSON.stringify({ record, replacedAt: new Date().toISOString() })}\n`, {
    mode: 0o600,
  });
  renameSync(folder, path.join(root, 'plugin'));
}

/** The previous version of `id`, if one is kept and readable. */
export function previousVersion(paths: DataPaths, id: string): PreviousVersion | null {
  const root = paths.previous(id);
  const dir = path.join(root, 'plugin');
  if (!existsSync(dir)) return null;
  try {
    const kept = JSON.parse(readFileSync(path.join(root, RECORD), 'utf8')) as {
      record?: InstallRecord;
      replacedAt?: string;
    };
    if (!kept.record || typeof kept.record.version !== 'string') return null;
    return { dir, record: kept.record, replacedAt: kept.replacedAt ?? '' };
  } catch {
    return null;
  }
}

export function dropPrevious(paths: DataPaths, id: string): void {
  rmSync(paths.previous(id), { recursive: true, force: true });
}

/**
 * Puts the previous version of `id` in place of the installed one, and keeps the installed one
 * as the previous. The plugin must be out of the host (unbound) while this runs.
 */
export async function swapWithPrevious(
  paths: DataPaths,
  state: StateStore,
  id: string,
): Promise<Outcome<{ from: string; to: string }>> {
  const prev = previousVersion(paths, id);
  if (!prev)
    return failure('invalid_state', `${id} has no previous version to roll back to (one is kept by an update)`);
  const current = state.plugin(id)?.installed as InstallRecord | undefined;
  const target = paths.plugin(id);
  const area = makeStagingArea(paths, 'previous');
  const aside = path.join(area, id);
  try {
    renameSync(target, aside);
    try {
      renameSync(prev.dir, target);
    } catch (e) {
      renameSync(aside, target);
      throw e;
    }
  } catch (e) {
    rmSync(area, { recursive: true, force: true });
    return failure('io_error', `could not roll ${id} back: ${(e as Error).message}`);
  }
  try {
    await state.update((s) => {
      const p = s.plugins[id];
      if (p) p.installed = { ...prev.record };
    });
  } catch (e) {
    renameSync(target, prev.dir);
    renameSync(aside, target);
    rmSync(area, { recursive: true, force: true });
    return failure('io_error', `could not record the rollback of ${id}: ${(e as Error).message}`);
  }
  const from = current?.version ?? '?';
  try {
    keepPrevious(paths, id, aside, current ?? { at: '', source: '', version: from });
  } finally {
    rmSync(area, { recursive: true, force: true });
  }
  return { ok: true, from, to: prev.record.version };
}
