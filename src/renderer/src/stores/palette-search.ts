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
const FUZZY = 3;

export function searchPalette(entries: PaletteEntry[], fuse: Fuse<PaletteEntry> | null, query: string): PaletteEntry[] {
  const q = query.trim();
  if (!q || !fuse) return entries;
  const colon = q.indexOf(':');
  if (colon === -1)
    return byTier(
      fuse.search(q).map((r) => r.item),
      (e) => tier(q, e.plugin, e.pluginName, e.name),
    );
  const plugin = q.slice(0, colon).trim();
  const tool = q.slice(colon + 1).trim();
  const byPlugin: Expression = { $or: [{ plugin }, { pluginName: plugin }] };
  const expr: Expression | null =
    plugin && tool ? { $and: [byPlugin, { name: tool }] } : plugin ? byPlugin : tool ? { name: tool } : null;
  if (!expr) return entries;
  return byTier(
    fuse.search(expr).map((r) => r.item),
    (e) => {
      const p = plugin ? tier(plugin, e.plugin, e.pluginName) : 0;
      const t = tool ? tier(tool, e.name) : 0;
      // Either side fuzzy makes the entry fuzzy; otherwise the plugin side weighs more.
      return p === FUZZY || t === FUZZY ? FUZZY : p * FUZZY + t;
    },
  );
}

/**
 * 0 when a name is what was typed, 1 when one starts with it, 2 when one contains it, 3 for a
 * fuzzy match (a typo, or words of the description). Fuzzy scores alone offered `terminal:*` and
 * `files:*` for `/hello` (issue 12): a person typing a name means that name.
 */
function tier(typed: string, ...names: string[]): number {
  const t = typed.toLowerCase();
  const lower = names.map((n) => n.toLowerCase());
  if (lower.includes(t)) return 0;
  if (lower.some((n) => n.startsWith(t))) return 1;
  return lower.some((n) => n.includes(t)) ? 2 : 3;
}

/**
 * A stable sort by tier (within a tier the fuzzy order stays). When some names match what was
 * typed, fuzzy-only matches are left out; when none do, they are all there is (typos).
 */
function byTier(items: PaletteEntry[], rank: (e: PaletteEntry) => number): PaletteEntry[] {
  const ranked = items.map((e, i) => ({ e, i, r: rank(e) })).sort((a, b) => a.r - b.r || a.i - b.i);
  const named = ranked.some((x) => x.r < FUZZY);
  return ranked.filter((x) => !named || x.r < FUZZY).map((x) => x.e);
}
