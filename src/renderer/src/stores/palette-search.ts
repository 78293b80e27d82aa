/** Fuzzy search over the palette's entries; pure, so it is tested without a page. */
import Fuse, { type Expression } from 'fuse.js';
import type { PaletteEntry } from '../../../shared/contract';

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
