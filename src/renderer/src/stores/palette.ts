/**
 * The `/` palette's entries (exposed tools and user commands) and fuzzy search over them. The
 * list is fetched when the palette opens and whenever plugins change, so it is never stale for
 * longer than an open.
 */
import type Fuse from 'fuse.js';
import { create } from 'zustand';
import type { PaletteEntry } from '../../../shared/contract';
import { getApi } from '../api';
import { paletteIndex } from './palette-search';
import { errorText } from './toasts';

interface PaletteState {
  entries: PaletteEntry[];
  loaded: boolean;
  error: string | null;
  fuse: Fuse<PaletteEntry> | null;
  load(): Promise<void>;
}

export const usePalette = create<PaletteState>()((set) => ({
  entries: [],
  loaded: false,
  error: null,
  fuse: null,
  async load() {
    try {
      const entries = await getApi().invoke('palette.list', {});
      set({ entries, fuse: paletteIndex(entries), loaded: true, error: null });
    } catch (e) {
      set({ loaded: true, error: errorText(e) });
    }
  },
}));

export { searchPalette } from './palette-search';

export function invalidatePalette(): void {
  if (usePalette.getState().loaded) void usePalette.getState().load();
}

/** The text that invokes an entry inline, as the server parses it. */
export function inlineCommand(e: PaletteEntry): string {
  return `/${e.plugin}:${e.name}`;
}

/** Whether a tool needs a form: it declares at least one parameter. */
export function hasParameters(e: PaletteEntry): boolean {
  const props = e.parameters.properties;
  if (typeof props === 'object' && props !== null && Object.keys(props).length > 0) return true;
  // A schema we cannot read as an object of properties gets the JSON form, to be safe.
  return e.parameters.type !== undefined && e.parameters.type !== 'object';
}
