/**
 * Which tools a request offers. Within the budget (a count and an estimate of the tokens their
 * declarations take), all of them. Above it, the ones most likely to matter, in this order: those
 * the model found with `find_tools` during the turn, those used recently in the conversation, the
 * best BM25 matches for what the person wrote last (names, descriptions, G-Assist tags, plugin
 * names), then the others in their usual order; up to the budget, with `find_tools` for the rest. The search index is
 * built once per set of tools and kept, so a step with 1,000 exposed tools does not rebuild it.
 */
import type { AssistantSettings } from '../../../shared/assistant';
import { ToolIndex } from '../tool-search';
import type { Offered } from './offered';
import { declarationTokens } from './tokens';

export interface Selection {
  offered: Offered[];
  /** Exposed tools in all. */
  total: number;
  /** Some were left out: `find_tools` must be offered. */
  chose: boolean;
}

export interface SelectionInput {
  all: readonly Offered[];
  /** What the person last wrote (the search query). */
  query: string;
  /** Qualified names of tools the conversation used, most recent first. */
  recent: readonly string[];
  /** Qualified names the model found with `find_tools` in this turn. */
  found: ReadonlySet<string>;
  budget: Pick<AssistantSettings, 'maxTools' | 'maxToolTokens'>;
}

/** Words of the query searched at most: a pasted page must not make every step slow. */
const MAX_QUERY_WORDS = 32;

type Entry = Offered & { key: string; name: string };

export class ToolChooser {
  private cached: { signature: string; index: ToolIndex<Entry> } | null = null;

  choose(input: SelectionInput): Selection {
    const { all, budget } = input;
    const tokens = all.reduce((n, t) => n + declarationTokens(t), 0);
    if (all.length <= budget.maxTools && tokens <= budget.maxToolTokens)
      return { offered: [...all], total: all.length, chose: false };
    const byName = new Map(all.map((t) => [t.qualifiedName, t]));
    const ranked: Offered[] = [];
    const seen = new Set<string>();
    const add = (t: Offered | undefined): void => {
      if (!t || seen.has(t.qualifiedName)) return;
      seen.add(t.qualifiedName);
      ranked.push(t);
    };
    for (const name of input.found) add(byName.get(name));
    for (const name of input.recent) add(byName.get(name));
    const query = input.query.split(/\s+/).filter(Boolean).slice(0, MAX_QUERY_WORDS).join(' ');
    for (const t of this.index(all).search(query, budget.maxTools)) add(t);
    for (const t of all) add(t);
    // One slot and its tokens stay for find_tools.
    const offered: Offered[] = [];
    let used = FIND_TOOLS_TOKENS;
    for (const t of ranked) {
      if (offered.length >= budget.maxTools - 1) break;
      const cost = declarationTokens(t);
      if (used + cost > budget.maxToolTokens) continue;
      offered.push(t);
      used += cost;
    }
    return { offered, total: all.length, chose: true };
  }

  /** Every exposed tool matching `query`, best first (find_tools). */
  search(all: readonly Offered[], query: string, limit: number): Offered[] {
    return this.index(all).search(query, limit);
  }

  /** The search index over `all`, rebuilt only when the set of tools changed. */
  private index(all: readonly Offered[]): ToolIndex<Entry> {
    let signature = '';
    for (const t of all) signature += `${t.qualifiedName}:${t.description.length};`;
    if (this.cached?.signature !== signature) {
      this.cached = { signature, index: new ToolIndex(all.map((t) => ({ ...t, key: t.qualifiedName, name: t.tool }))) };
    }
    return this.cached.index;
  }
}

/** About what find_tools' own declaration takes (builtins.ts declares it). */
export const FIND_TOOLS_TOKENS = 120;
