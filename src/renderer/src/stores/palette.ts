/**
 * The `/` palette's entries (exposed tools and user commands) and fuzzy search over them. The
 * list is fetched when the palette opens and whenever plugins change, so it is never stale for
 * longer than an open.
 */
import Fuse, { type Expression } from 'fuse.js';
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
      set({ entries, fuse: paletteIndex(entries), loaded: true, error: null });
    } catch (e) {
      set({ loaded: true, error: errorText(e) });
    }
  },
}));

/** The fuzzy index the palette searches: names first, then plugins, then descriptions. */
export function paletteIndex(entries: PaletteEntry[]): Fuse<PaletteEntry> {
  return new Fuse(entries, {
    keys: [
      { name: 'name', weight: 3 },
      { name: 'plugin', weight: 2 },
      { name: 'pluginName', weight: 2 },
      { name: 'description', weight: 1 },
    ],
    threshold: 0.4,
    ignoreLocation: true,
  });
}

export function invalidatePalette(): void {
  if (usePalette.getState().loaded) void usePalette.getState().load();
}

/**
 * The query is what follows `/`. `plugin:tool` (either side may be partial or empty) matches the
 * plugin by its id or name and the tool by its name, each fuzzily; anything else is searched
 * across names, plugins and descriptions.
 */
export function searchPalette(entries: PaletteEntry[], fuse: Fuse<PaletteEntry> | null, query: string): PaletteEntry[] {
  const q = query.trim();
  if (!q || !fuse) return entries;
  const colon = q.indexOf(':');
  if (colon === -1) return fuse.search(q).map((r) => r.item);
  const plugin = q.slice(0, colon).trim();
  const tool = q.slice(colon + 1).trim();
  const byPlugin: Expression = { $or: [{ plugin }, { pluginName: plugin }] };
  const expr: Expression | null = plugin && tool ? { $and: [byPlugin, { name: tool }] } : plugin ? byPlugin : tool ? { name: tool } : null;
  return expr ? fuse.search(expr).map((r) => r.item) : entries;
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
