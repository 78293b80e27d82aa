/**
 * A `/plugin:tool` that names a tool its plugin does not have: the tools whose names are closest,
 * to suggest instead of handing the plugin a call it can only answer with a raw "method not
 * found" (JSON-RPC -32601). Fuzzy matching by Fuse.js, the palette's library.
 */
import Fuse from 'fuse.js';

/** Up to `limit` of `names`, closest to `typed` first; none when nothing is close. */
export function closestTools(typed: string, names: readonly string[], limit = 3): string[] {
  const fuse = new Fuse([...names], { includeScore: true, threshold: 0.5, ignoreLocation: true });
  return fuse
    .search(typed)
    .slice(0, limit)
    .map((r) => r.item);
}
