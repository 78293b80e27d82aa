/**
 * The `/` palette's entries (exposed tools and user commands) and fuzzy search over them. The
 * list is fetched when the palette opens and whenever plugins change, so it is never stale for
 * longer than an open.
 */
import Fuse from 'fuse.js';
import { create } from 'zustand';
import type { PaletteEntry } from '../../../shared/contract';
import { getApi } from '../api';
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
      const fuse = new Fuse(entries, {
        keys: [
          { name: 'name', weight: 3 },
          { name: 'plugin', weight: 2 },
          { name: 'pluginName', weight: 2 },
          { name: 'description', weight: 1 },
        ],
        threshold: 0.4,
        ignoreLocation: true,
      });
      set({ entries, fuse, loaded: true, error: null });
    } catch (e) {
      set({ loaded: true, error: errorText(e) });
    }
  },
}));

export function invalidatePalette(): void {
  if (usePalette.getState().loaded) void usePalette.getState().load();
}

/** The query is what follows `/`; `plugin:tool` is matched as both words. */
export function searchPalette(entries: PaletteEntry[], fuse: Fuse<PaletteEntry> | null, query: string): PaletteEntry[] {
  const q = query.trim().replace(':', ' ');
  if (!q || !fuse) return entries;
  return fuse.search(q).map((r) => r.item);
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
