/**
 * Installing by drag and drop: what was dropped → a preview (`install.preview`) → the user's
 * grants → `install.commit`. Desktop: the preload tells us the dropped file's path. Web: the file
 * is uploaded first; a folder cannot be, and we say so.
 */
import { create } from 'zustand';
import type { InstallPreviewView } from '../../../shared/contract';
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
  | { step: 'preview'; token: string; preview: InstallPreviewView; grants: string[]; committing: boolean; error: string | null };

interface InstallState {
  phase: InstallPhase;
  drop(items: DroppedItem[]): Promise<void>;
  toggleGrant(capability: string): void;
  commit(): Promise<void>;
  cancel(): void;
}

const PACKAGE = /\.(zip|mcpb|dxt)$/i;
/** Which drop is current: an answer for an earlier, cancelled drop is discarded. */
let dropSeq = 0;

export const useInstall = create<InstallState>()((set, get) => ({
  phase: { step: 'idle' },
  async drop(items) {
    if (get().phase.step !== 'idle') return;
    const item = items[0];
    if (!item) return;
    const name = item.file.name;
    const mine = ++dropSeq;
    const current = (): boolean => dropSeq === mine && get().phase.step === 'reading';
    if (items.length > 1) return set({ phase: { step: 'refused', name: `${items.length} items`, message: 'Drop one plugin at a time: a folder, a .zip, a .mcpb or a .dxt file.' } });
    if (!item.isDirectory && !PACKAGE.test(name)) {
      return set({ phase: { step: 'refused', name, message: `“${name}” is not a plugin package. Drop a plugin folder, or a .zip, .mcpb or .dxt file.` } });
    }
    let source: { kind: 'path'; path: string } | { kind: 'upload'; uploadId: string };
    if (installsByPath()) {
      const path = pathForFile(item.file);
      if (!path) return set({ phase: { step: 'refused', name, message: `Could not tell where “${name}” is on disk. Drop it from a file manager.` } });
      source = { kind: 'path', path };
    } else {
      if (item.isDirectory) {
        return set({ phase: { step: 'refused', name, message: `“${name}” is a folder, and a browser cannot upload a folder: drop a .zip of the folder, or use the desktop app.` } });
      }
      set({ phase: { step: 'reading', name, detail: 'Uploading…' } });
      const up = await upload(item.file);
      if (!current()) return;
      if (!up.ok) return set({ phase: { step: 'refused', name, message: up.message } });
      source = { kind: 'upload', uploadId: up.uploadId };
    }
    set({ phase: { step: 'reading', name, detail: 'Reading the manifest…' } });
    try {
      const r = await getApi().invoke('install.preview', { source });
      if (!current()) {
        // Cancelled while reading: release what the server staged.
        if (r.ok) void getApi().invoke('install.cancel', { token: r.token }).catch(() => undefined);
        return;
      }
      if (!r.ok) return set({ phase: { step: 'refused', name, message: r.message } });
      set({ phase: { step: 'preview', token: r.token, preview: r.preview, grants: r.preview.requested.map((c) => c.name), committing: false, error: null } });
    } catch (e) {
      if (current()) set({ phase: { step: 'refused', name, message: errorText(e) } });
    }
  },
  toggleGrant(capability) {
    const p = get().phase;
    if (p.step !== 'preview') return;
    const grants = p.grants.includes(capability) ? p.grants.filter((g) => g !== capability) : [...p.grants, capability];
    set({ phase: { ...p, grants } });
  },
  async commit() {
    const p = get().phase;
    if (p.step !== 'preview' || p.committing) return;
    set({ phase: { ...p, committing: true, error: null } });
    let error: string;
    try {
      const r = await getApi().invoke('install.commit', { token: p.token, grants: p.grants, replace: p.preview.replaces !== null });
      if (r.ok) {
        set({ phase: { step: 'idle' } });
        toastInfo(`Installed ${p.preview.name} ${p.preview.version}`);
        scheduleRefresh();
        return;
      }
      error = r.message;
    } catch (e) {
      error = errorText(e);
    }
    const now = get().phase;
    if (now.step === 'preview') set({ phase: { ...now, committing: false, error } });
  },
  cancel() {
    const p = get().phase;
    if (p.step === 'preview') void getApi().invoke('install.cancel', { token: p.token }).catch(() => undefined);
    dropSeq++;
    set({ phase: { step: 'idle' } });
  },
}));
