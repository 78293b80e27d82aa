/**
 * The activation of a staged install: move the plugin folder into place (keeping the old one
 * aside until the new one is in, for an upgrade), then record it in the registry state. Any
 * failure puts everything back as it was. Also the removal of an installed plugin.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { FolderGrant } from '../../../shared/capabilities';
import type { DataPaths } from '../data-paths';
import { signInSecretId } from '../registry/sign-ins';
import type { SecretStore } from '../secrets';
import { defaultPluginState, type PluginState, type StateStore } from '../registry/state';
import type { InstallRecord } from './pinned';
import { dropPrevious, keepPrevious } from './previous';
import { removeIfEmpty, type Staged } from './stage';
import { makeStagingArea } from './staging-area';

export interface InstallOutcome {
  ok: true;
  id: string;
  version: string;
  upgraded: boolean;
  granted: string[];
  /** Folders and files granted by path. */
  folders: FolderGrant[];
  /** Capabilities the new version requests that were not granted before. */
  newlyRequested: string[];
  detail: string;
  /** The package its runner fetches, as installed and pinned (packages/). */
  pinned?: { spec: string; version: string; integrity: string | null; packages: number };
  /** What the checks of the package warned about (a secret passed in the command line…). */
  warnings?: string[];
}

export async function installStaged(
  staged: Staged,
  ctx: {
    paths: DataPaths;
    state: StateStore;
    source: string;
    grants: string[];
    folders: FolderGrant[];
    upgrade: boolean;
    /** A fresh install's reviewed definitions: those its preview's trial announced. */
    reviewed?: PluginState['reviewed'];
  },
): Promise<InstallOutcome | { ok: false; message: string }> {
  const { spec } = staged;
  const target = ctx.paths.plugin(spec.id);
  // The previous version waits in the staging area (next to the staged one) until the new one is in.
  const asideRoot = ctx.upgrade && existsSync(target) ? makeStagingArea(ctx.paths, 'previous') : null;
  const aside = asideRoot ? path.join(asideRoot, spec.id) : null;
  const pluginsExisted = existsSync(ctx.paths.plugins);
  const undo = (): void => {
    if (asideRoot) rmSync(asideRoot, { recursive: true, force: true });
    // Only the folder this install made, and only while it is empty: another process may have
    // installed a plugin into it meanwhile.
    if (!pluginsExisted) removeIfEmpty(ctx.paths.plugins);
    staged.discard();
  };
  try {
    mkdirSync(ctx.paths.plugins, { recursive: true });
    if (aside) renameSync(target, aside);
    try {
      renameSync(staged.dir, target);
    } catch (e) {
      if (aside) renameSync(aside, target);
      throw e;
    }
  } catch (e) {
    undo();
    return { ok: false, message: `could not move ${spec.id} into place: ${(e as Error).message}` };
  }
  let granted: string[] = ctx.grants;
  let folders: FolderGrant[] = ctx.folders;
  let newlyRequested: string[] = [];
  let replaced: InstallRecord | undefined;
  try {
    await ctx.state.update((state) => {
      const info = { at: new Date().toISOString(), source: ctx.source, version: spec.version };
      const prev = state.plugins[spec.id];
      replaced = prev?.installed;
      if (ctx.upgrade && prev) {
        // An upgrade keeps settings, exposure and grants; new requests wait for the user.
        newlyRequested = ctx.grants.filter((g) => !prev.grants.includes(g));
        granted = prev.grants;
        folders = prev.folders ?? [];
        state.plugins[spec.id] = { ...prev, installed: info };
      } else {
        state.plugins[spec.id] = {
          ...defaultPluginState(ctx.grants),
          ...(ctx.folders.length > 0 ? { folders: ctx.folders } : {}),
          ...(ctx.reviewed ? { reviewed: ctx.reviewed } : {}),
          installed: info,
        };
      }
    });
  } catch (e) {
    // Put the folders back: the data directory must be as it was.
    rmSync(target, { recursive: true, force: true });
    if (aside) renameSync(aside, target);
    undo();
    return { ok: false, message: `could not record ${spec.id} in the registry: ${(e as Error).message}` };
  }
  // The version replaced is kept for one rollback (previous.ts); not keeping it fails nothing.
  let kept = '';
  if (aside) {
    try {
      keepPrevious(ctx.paths, spec.id, aside, replaced ?? { at: '', source: '', version: '?' });
      kept = `; ${replaced?.version ?? 'the previous version'} is kept for a rollback`;
    } catch (e) {
      kept = `; the previous version could not be kept for a rollback: ${(e as Error).message}`;
    }
  }
  if (asideRoot) rmSync(asideRoot, { recursive: true, force: true });
  staged.discard();
  const what = ctx.upgrade ? 'upgraded' : 'installed';
  return {
    ok: true,
    id: spec.id,
    version: spec.version,
    upgraded: ctx.upgrade,
    granted,
    folders,
    newlyRequested,
    detail: `${what} ${spec.id} ${spec.version} (${staged.kind}, ${staged.entries} entries, ${staged.bytes} bytes)${kept}`,
  };
}

export async function removeInstalled(
  id: string,
  dir: string,
  ctx: { paths: DataPaths; state: StateStore; secrets: SecretStore },
): Promise<{ ok: true } | { ok: false; message: string }> {
  // The folder goes first, by a rename that either happens or not: a plugin that cannot be
  // removed stays installed with its state, instead of listed without its grants.
  const stagingExisted = existsSync(ctx.paths.staging);
  const trash = makeStagingArea(ctx.paths, 'removing');
  const moved = path.join(trash, id);
  const emptyTrash = (): void => {
    rmSync(trash, { recursive: true, force: true });
    if (!stagingExisted) removeIfEmpty(ctx.paths.staging);
  };
  try {
    renameSync(dir, moved);
  } catch (e) {
    emptyTrash();
    return { ok: false, message: `could not remove ${id}: ${(e as Error).message}` };
  }
  try {
    await ctx.state.update((state) => {
      if (!(id in state.plugins)) return false;
      delete state.plugins[id];
    });
  } catch (e) {
    renameSync(moved, dir);
    emptyTrash();
    return { ok: false, message: `could not remove ${id} from the registry: ${(e as Error).message}` };
  }
  emptyTrash();
  try {
    await ctx.secrets.removeAll(id);
    await ctx.secrets.removeAll(signInSecretId(id));
    rmSync(ctx.paths.pluginData(id), { recursive: true, force: true });
    dropPrevious(ctx.paths, id);
  } catch (e) {
    return { ok: false, message: `${id} was removed, but its secrets or data could not be: ${(e as Error).message}` };
  }
  return { ok: true };
}
