/**
 * Whether the conversations are being saved. When the disk refuses (full, read-only), the server
 * keeps the changes in memory and retries; the page says so until everything is on disk again.
 */
import { create } from 'zustand';
import type { SaveState } from '../../../shared/contract';
import { getApi } from '../api';

export const useSaveState = create<SaveState>()(() => ({ unsaved: 0, failure: null }));

export function applySaveState(s: SaveState): void {
  useSaveState.setState(s);
}

/** Asks the server (at start, and after a reconnect, when events may have been missed). */
export function loadSaveState(): void {
  getApi()
    .invoke('chat.saveState', {})
    .then(applySaveState, () => undefined);
}
