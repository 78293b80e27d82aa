/**
 * Finding tools by what a person (or a model) wrote, without a model: BM25 ranking (MiniSearch's
 * BM25+) over each tool's name, its plugin's name, its description and its G-Assist tags, with
 * prefix and light fuzzy matching so "weathr" and "temp" still find a weather tool. Used by the
 * "Connect a model" card to suggest tools, and by the assistant to choose which tools to offer
 * when there are too many to send them all.
 */
import MiniSearch from 'minisearch';

export interface SearchableTool {
  /** A unique key (the tool's model-facing name). */
  key: string;
  name: string;
  plugin: string;
  description: string;
  tags?: string[];
}

/**
 * Words too common to tell tools apart: dropped from the index and the query, as BM25 setups
 * usually do, so a long sentence searches only the words that mean something.
 */
const STOP_WORDS = new Set(
  'a an and are as at be but by can could do does for from have how i in is it its me my of on or please so some that the their them then there these this to up us was we what when where which who will with would you your also just one'.split(
    ' ',
  ),
);

/** Splits `snake_case`, `kebab-case`, `dotted.names` and `camelCase` into words, as people type them. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

export class ToolIndex<T extends SearchableTool> {
  private readonly index: MiniSearch<{ key: string; name: string; plugin: string; description: string; tags: string }>;
  private readonly byKey = new Map<string, T>();

  constructor(tools: readonly T[]) {
    this.index = new MiniSearch({
      idField: 'key',
      fields: ['name', 'plugin', 'description', 'tags'],
      tokenize: words,
      processTerm: (term) => (STOP_WORDS.has(term) ? null : term),
      // Prefix and typo matching only for words long enough to mean something: each costs a walk
      // of the index, and a short word would match half of it.
      searchOptions: {
        boost: { name: 3, tags: 2, plugin: 1.5 },
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        combineWith: 'OR',
      },
    });
    for (const t of tools) this.byKey.set(t.key, t);
    this.index.addAll(
      tools.map((t) => ({
        key: t.key,
        name: t.name,
        plugin: t.plugin,
        description: t.description,
        tags: (t.tags ?? []).join(' '),
      })),
    );
  }

  /** The best matches for `text`, best first, at most `limit`; none when nothing matches. */
  search(text: string, limit: number): T[] {
    if (!text.trim()) return [];
    return this.index
      .search(text)
      .slice(0, limit)
      .map((r) => this.byKey.get(String(r.id)))
      .filter((t): t is T => t !== undefined);
  }
}
