/**
 * Installing by drag and drop or the picker: what was dropped or chosen → a preview
 * (`install.preview`, which also tries the plugin) → the user's grants → `install.commit`.
 * Desktop: the preload tells us the file's path. Web: the file is uploaded first; a chosen folder
 * is packed into a zip and uploaded (a dropped one cannot be read, and we say so).
 */
/* eslint-disable max-lines -- one whole concern: the install journey's state, from a drop to the committed plugin */
import { create } from 'zustand';
import type { InstallPreviewView, PathGrantView } from '../../../shared/contract';
import type { ImportPreviewView, ImportResultView } from '../../../shared/imports';
import { getApi, installsByPath, pathForFile, upload } from '../api';
import { installSettingsFor } from './install-settings';
import { beginProgress, endProgress } from './install-progress';
import { scheduleRefresh } from './plugins';
import { errorText, toastInfo } from './toasts';

export interface DroppedItem {
  file: File;
  isDirectory: boolean;
}

/** A path offered as a grant, and what the person chose: granted or not, read-write or read-only. */
export type FolderChoice = PathGrantView & { granted: boolean };

/** What an imported server gets: the network, and its paths. */
export interface ServerAccess {
  net: boolean;
  folders: FolderChoice[];
  /** Run from a copy in Plugboard of the person's folder it runs from (where offered). */
  copy: boolean;
}

export type InstallPhase =
  | { step: 'idle' }
  /** The picker: a file (package or MCP config) or a folder to install. */
  | { step: 'choose' }
  | { step: 'reading'; name: string; detail: string }
  | { step: 'refused'; name: string; message: string }
  | {
      step: 'preview';
      token: string;
      preview: InstallPreviewView;
      grants: string[];
      folders: FolderChoice[];
      committing: boolean;
      /** The trial is being tried again with the form's values (install-trial.ts). */
      trying?: boolean;
      error: string | null;
    }
  /** Another app's MCP config: its servers, the ones chosen, and the variables kept secret. */
  | {
      step: 'import';
      token: string;
      preview: ImportPreviewView;
      chosen: string[];
      secret: string[];
      /** By server key. */
      access: Record<string, ServerAccess>;
      committing: boolean;
      error: string | null;
      results: ImportResultView[];
    };

export const useInstall = create<{ phase: InstallPhase }>()(() => ({ phase: { step: 'idle' } }));

const PACKAGE = /\.(zip|mcpb|dxt)$/i;
/** Claude Desktop's claude_desktop_config.json, Cursor's and VS Code's mcp.json, exports of other apps. */
const CONFIG = /\.json$/i;
/** Which drop is current: an answer for an earlier, cancelled drop is discarded. */
let dropSeq = 0;

export function setPhase(phase: InstallPhase): void {
  useInstall.setState({ phase });
}

export function phase(): InstallPhase {
  return useInstall.getState().phase;
}

type Source = { kind: 'path'; path: string } | { kind: 'upload'; uploadId: string };

/** Opens the install picker (the header's and the panel's "Install plugin…", or its shortcut). */
export function openInstallPicker(): void {
  if (phase().step === 'idle') setPhase({ step: 'choose' });
}

export async function dropToInstall(items: DroppedItem[]): Promise<void> {
  if (phase().step !== 'idle' && phase().step !== 'choose') return;
  const item = items[0];
  if (!item) return;
  const name = item.file.name;
  if (items.length > 1)
    return setPhase({
      step: 'refused',
      name: `${items.length} items`,
      message: 'Drop one plugin at a time: a folder, a .zip, a .mcpb or a .dxt file.',
    });
  const isConfig = !item.isDirectory && CONFIG.test(name);
  if (!item.isDirectory && !PACKAGE.test(name) && !isConfig) {
    return setPhase({
      step: 'refused',
      name,
      message: `“${name}” is not a plugin package. Drop a plugin folder, a .zip, .mcpb or .dxt file, or an MCP config such as claude_desktop_config.json.`,
    });
  }
  return install(name, isConfig, async () => {
    if (installsByPath()) {
      const path = pathForFile(item.file);
      return path ? { kind: 'path', path } : `Could not tell where “${name}” is on disk. Drop it from a file manager.`;
    }
    if (item.isDirectory)
      return `“${name}” is a folder, which a browser cannot hand over when dropped: use Install plugin… and choose the folder, drop a .zip of it, or use the desktop app.`;
    return uploaded(name, item.file);
  });
}

/**
 * A folder chosen in the picker (`webkitdirectory`): its files, each with its path inside the
 * folder's parent. The desktop app installs the folder from where it is; the web UI packs it
 * into a zip (api/zip-folder.ts) and uploads that.
 */
export async function pickFolder(files: File[]): Promise<void> {
  if (phase().step !== 'idle' && phase().step !== 'choose') return;
  const first = files[0];
  const rel = first?.webkitRelativePath.replace(/\\/g, '/') ?? '';
  const name = rel.split('/')[0] || 'folder';
  if (!first)
    return setPhase({
      step: 'refused',
      name,
      message: 'That folder is empty: choose a plugin folder, with its manifest inside.',
    });
  return install(name, false, async () => {
    if (installsByPath()) {
      // The chosen folder's path: the first file's, less its path inside the folder.
      const file = pathForFile(first);
      return file
        ? { kind: 'path', path: file.slice(0, file.length - (rel.length - name.length)) }
        : `Could not tell where “${name}” is on disk.`;
    }
    setPhase({ step: 'reading', name, detail: `Packing ${files.length} files…` });
    // Loaded when first needed: most people never pick a folder in the web UI.
    const { packFolder } = await import('../api/zip-folder');
    const packed = await packFolder(files);
    if (!packed.ok) return packed.message;
    return uploaded(name, packed.zip);
  });
}

async function uploaded(name: string, file: File): Promise<Source | string> {
  setPhase({ step: 'reading', name, detail: 'Uploading…' });
  const up = await upload(file);
  return up.ok ? { kind: 'upload', uploadId: up.uploadId } : up.message;
}

/** Gets the package to the server (`source` answers it, or why not) and previews it. */
async function install(name: string, isConfig: boolean, source: () => Promise<Source | string>): Promise<void> {
  const mine = ++dropSeq;
  const current = (): boolean => dropSeq === mine && phase().step === 'reading';
  setPhase({ step: 'reading', name, detail: 'Opening…' });
  const src = await source();
  if (!current()) return;
  if (typeof src === 'string') return setPhase({ step: 'refused', name, message: src });
  if (isConfig) return previewImport(name, src, current);
  // The preview tries the plugin (launch and handshake, install/trial on the server): seconds.
  setPhase({ step: 'reading', name, detail: 'Reading the manifest, installing its package and trying the plugin…' });
  try {
    const r = await getApi().invoke('install.preview', { source: src, progress: beginProgress() });
    if (!current()) {
      // Cancelled while reading: release what the server staged.
      if (r.ok)
        void getApi()
          .invoke('install.cancel', { token: r.token })
          .catch(() => undefined);
      return;
    }
    endProgress();
    if (!r.ok) return setPhase({ step: 'refused', name, message: r.message });
    setPhase({
      step: 'preview',
      token: r.token,
      preview: r.preview,
      // What it requests; the network it did not request stays off, and so do the paths its
      // manifest names: the plugin's author chose them, so the person ticks each one (red team Z07).
      grants: r.preview.requested.map((c) => c.name),
      folders: offered(r.preview.paths, false),
      committing: false,
      error: null,
    });
  } catch (e) {
    if (current()) setPhase({ step: 'refused', name, message: errorText(e) });
  }
}

async function previewImport(name: string, source: Source, current: () => boolean): Promise<void> {
  setPhase({ step: 'reading', name, detail: 'Reading the MCP servers…' });
  try {
    const r = await getApi().invoke('import.preview', { source });
    if (!current()) {
      if (r.ok)
        void getApi()
          .invoke('install.cancel', { token: r.token })
          .catch(() => undefined);
      return;
    }
    if (!r.ok) return setPhase({ step: 'refused', name, message: r.message });
    const servers = r.preview.servers;
    setPhase({
      step: 'import',
      token: r.token,
      preview: r.preview,
      chosen: servers.filter((x) => x.runnable && !x.disabled).map((x) => x.key),
      secret: [...new Set(servers.flatMap((x) => [...x.env, ...x.headers].filter((e) => e.secret).map((e) => e.name)))],
      access: Object.fromEntries(servers.map((x) => [x.key, { net: false, folders: offered(x.paths), copy: false }])),
      committing: false,
      error: null,
      results: [],
    });
  } catch (e) {
    if (current()) setPhase({ step: 'refused', name, message: errorText(e) });
  }
}

/**
 * A catalog entry previewed as an import (catalog.preview): the import step, with the first way
 * it can run here chosen (one plugin per entry, unless the person picks more).
 */
export function showCatalogPreview(token: string, preview: ImportPreviewView): void {
  const first = preview.servers.find((x) => x.runnable);
  setPhase({
    step: 'import',
    token,
    preview,
    chosen: first ? [first.key] : [],
    secret: [
      ...new Set(preview.servers.flatMap((x) => [...x.env, ...x.headers].filter((e) => e.secret).map((e) => e.name))),
    ],
    // A catalog entry's paths are its publisher's, not the person's: offered unticked.
    access: Object.fromEntries(
      preview.servers.map((x) => [x.key, { net: false, folders: offered(x.paths, false), copy: false }]),
    ),
    committing: false,
    error: null,
    results: [],
  });
}

export async function commitImport(): Promise<void> {
  const p = phase();
  if (p.step !== 'import' || p.committing || p.chosen.length === 0) return;
  setPhase({ ...p, committing: true, error: null });
  let error: string;
  try {
    const grants = Object.fromEntries(
      p.chosen.map((k) => [k, { net: p.access[k]?.net ?? false, folders: chosenFolders(p.access[k]?.folders ?? []) }]),
    );
    const r = await getApi().invoke('import.commit', {
      token: p.token,
      only: p.chosen,
      secret: p.secret,
      grants,
      copy: p.chosen.filter((k) => p.access[k]?.copy),
      progress: beginProgress(),
    });
    endProgress();
    if (r.ok) {
      scheduleRefresh();
      const done = r.results.filter((x) => x.ok);
      if (done.length === r.results.length) {
        setPhase({ step: 'idle' });
        toastInfo(`Installed ${done.map((x) => x.name).join(', ')}`);
        return;
      }
      // Some were refused: the dialog stays, saying which and why; the installed ones are unchosen.
      const now = phase();
      if (now.step === 'import')
        setPhase({
          ...now,
          committing: false,
          results: r.results,
          chosen: now.chosen.filter((k) => !done.some((x) => x.key === k)),
        });
      return;
    }
    error = r.message;
  } catch (e) {
    error = errorText(e);
  }
  const now = phase();
  if (now.step === 'import') setPhase({ ...now, committing: false, error });
}

export async function commitInstall(): Promise<void> {
  const p = phase();
  if (p.step !== 'preview' || p.committing) return;
  setPhase({ ...p, committing: true, error: null });
  let error: string;
  try {
    const r = await getApi().invoke('install.commit', {
      token: p.token,
      grants: p.grants,
      folders: chosenFolders(p.folders),
      replace: p.preview.replaces !== null,
      progress: beginProgress(),
      settings: installSettingsFor(p.token, p.preview),
    });
    endProgress();
    if (r.ok) {
      setPhase({ step: 'idle' });
      toastInfo(`Installed ${p.preview.name} ${p.preview.version}`);
      scheduleRefresh();
      return;
    }
    error = r.message;
  } catch (e) {
    error = errorText(e);
  }
  const now = phase();
  if (now.step === 'preview') setPhase({ ...now, committing: false, error });
}

/** The paths a preview offers, each granted to start with (the person's own config named them). */
/**
 * The paths a preview offers, ticked (`granted`) where the person wrote them (their own config,
 * imported), unticked where a plugin's author or a catalog's publisher did.
 */
export function offered(paths: PathGrantView[], granted = true): FolderChoice[] {
  return paths.map((g) => ({ ...g, granted }));
}

export function chosenFolders(folders: FolderChoice[]): Array<{ path: string; write: boolean }> {
  return folders.filter((f) => f.granted).map((f) => ({ path: f.path, write: f.write }));
}

export function cancelInstall(): void {
  const p = phase();
  if (p.step === 'preview' || p.step === 'import')
    void getApi()
      .invoke('install.cancel', { token: p.token })
      .catch(() => undefined);
  dropSeq++;
  endProgress();
  setPhase({ step: 'idle' });
}
