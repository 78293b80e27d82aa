/**
 * Installing by drag and drop: what was dropped → a preview (`install.preview`) → the user's
 * grants → `install.commit`. Desktop: the preload tells us the dropped file's path. Web: the file
 * is uploaded first; a folder cannot be, and we say so.
 */
import { create } from 'zustand';
import type { InstallPreviewView } from '../../../shared/contract';
import type { ImportPreviewView, ImportResultView } from '../../../shared/imports';
import { getApi, installsByPath, pathForFile, upload } from '../api';
import { scheduleRefresh } from './plugins';
import { errorText, toastInfo } from './toasts';

export interface DroppedItem {
  file: File;
  isDirectory: boolean;
}

export type InstallPhase =
  | { step: 'idle' }
  | { step: 'reading'; name: string; detail: string }
  | { step: 'refused'; name: string; message: string }
  | { step: 'preview'; token: string; preview: InstallPreviewView; grants: string[]; committing: boolean; error: string | null }
  /** Another app's MCP config: its servers, the ones chosen, and the variables kept secret. */
  | { step: 'import'; token: string; preview: ImportPreviewView; chosen: string[]; secret: string[]; committing: boolean; error: string | null; results: ImportResultView[] };

export const useInstall = create<{ phase: InstallPhase }>()(() => ({ phase: { step: 'idle' } }));

const PACKAGE = /\.(zip|mcpb|dxt)$/i;
/** Claude Desktop's claude_desktop_config.json, Cursor's and VS Code's mcp.json, exports of other apps. */
const CONFIG = /\.json$/i;
/** Which drop is current: an answer for an earlier, cancelled drop is discarded. */
let dropSeq = 0;

function setPhase(phase: InstallPhase): void {
  useInstall.setState({ phase });
}

function phase(): InstallPhase {
  return useInstall.getState().phase;
}

export async function dropToInstall(items: DroppedItem[]): Promise<void> {
  if (phase().step !== 'idle') return;
  const item = items[0];
  if (!item) return;
  const name = item.file.name;
  const mine = ++dropSeq;
  const current = (): boolean => dropSeq === mine && phase().step === 'reading';
  if (items.length > 1) return setPhase({ step: 'refused', name: `${items.length} items`, message: 'Drop one plugin at a time: a folder, a .zip, a .mcpb or a .dxt file.' });
  const isConfig = !item.isDirectory && CONFIG.test(name);
  if (!item.isDirectory && !PACKAGE.test(name) && !isConfig) {
    return setPhase({ step: 'refused', name, message: `“${name}” is not a plugin package. Drop a plugin folder, a .zip, .mcpb or .dxt file, or an MCP config such as claude_desktop_config.json.` });
  }
  let source: { kind: 'path'; path: string } | { kind: 'upload'; uploadId: string };
  if (installsByPath()) {
    const path = pathForFile(item.file);
    if (!path) return setPhase({ step: 'refused', name, message: `Could not tell where “${name}” is on disk. Drop it from a file manager.` });
    source = { kind: 'path', path };
  } else {
    if (item.isDirectory) {
      return setPhase({ step: 'refused', name, message: `“${name}” is a folder, and a browser cannot upload a folder: drop a .zip of the folder, or use the desktop app.` });
    }
    setPhase({ step: 'reading', name, detail: 'Uploading…' });
    const up = await upload(item.file);
    if (!current()) return;
    if (!up.ok) return setPhase({ step: 'refused', name, message: up.message });
    source = { kind: 'upload', uploadId: up.uploadId };
  }
  if (isConfig) return previewImport(name, source, current);
  setPhase({ step: 'reading', name, detail: 'Reading the manifest…' });
  try {
    const r = await getApi().invoke('install.preview', { source });
    if (!current()) {
      // Cancelled while reading: release what the server staged.
      if (r.ok) void getApi().invoke('install.cancel', { token: r.token }).catch(() => undefined);
      return;
    }
    if (!r.ok) return setPhase({ step: 'refused', name, message: r.message });
    setPhase({ step: 'preview', token: r.token, preview: r.preview, grants: r.preview.requested.map((c) => c.name), committing: false, error: null });
  } catch (e) {
    if (current()) setPhase({ step: 'refused', name, message: errorText(e) });
  }
}

async function previewImport(name: string, source: { kind: 'path'; path: string } | { kind: 'upload'; uploadId: string }, current: () => boolean): Promise<void> {
  setPhase({ step: 'reading', name, detail: 'Reading the MCP servers…' });
  try {
    const r = await getApi().invoke('import.preview', { source });
    if (!current()) {
      if (r.ok) void getApi().invoke('install.cancel', { token: r.token }).catch(() => undefined);
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
      committing: false,
      error: null,
      results: [],
    });
  } catch (e) {
    if (current()) setPhase({ step: 'refused', name, message: errorText(e) });
  }
}

export function toggleImportServer(key: string): void {
  const p = phase();
  if (p.step !== 'import') return;
  setPhase({ ...p, chosen: p.chosen.includes(key) ? p.chosen.filter((k) => k !== key) : [...p.chosen, key] });
}

export function toggleImportSecret(name: string): void {
  const p = phase();
  if (p.step !== 'import') return;
  setPhase({ ...p, secret: p.secret.includes(name) ? p.secret.filter((k) => k !== name) : [...p.secret, name] });
}

export async function commitImport(): Promise<void> {
  const p = phase();
  if (p.step !== 'import' || p.committing || p.chosen.length === 0) return;
  setPhase({ ...p, committing: true, error: null });
  let error: string;
  try {
    const r = await getApi().invoke('import.commit', { token: p.token, only: p.chosen, secret: p.secret });
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
      if (now.step === 'import') setPhase({ ...now, committing: false, results: r.results, chosen: now.chosen.filter((k) => !done.some((x) => x.key === k)) });
      return;
    }
    error = r.message;
  } catch (e) {
    error = errorText(e);
  }
  const now = phase();
  if (now.step === 'import') setPhase({ ...now, committing: false, error });
}

export function toggleGrant(capability: string): void {
  const p = phase();
  if (p.step !== 'preview') return;
  const grants = p.grants.includes(capability) ? p.grants.filter((g) => g !== capability) : [...p.grants, capability];
  setPhase({ ...p, grants });
}

export async function commitInstall(): Promise<void> {
  const p = phase();
  if (p.step !== 'preview' || p.committing) return;
  setPhase({ ...p, committing: true, error: null });
  let error: string;
  try {
    const r = await getApi().invoke('install.commit', { token: p.token, grants: p.grants, replace: p.preview.replaces !== null });
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

export function cancelInstall(): void {
  const p = phase();
  if (p.step === 'preview' || p.step === 'import') void getApi().invoke('install.cancel', { token: p.token }).catch(() => undefined);
  dropSeq++;
  setPhase({ step: 'idle' });
}
