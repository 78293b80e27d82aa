/**
 * Full-text search over conversation titles and message text (issue 12), on the FTS5 indexes of
 * store/db.ts. What a person types is never handed to FTS5 as query syntax: each word becomes a
 * quoted string (so `AND`, `"`, `*`, `:` and parentheses are plain text and no syntax error can
 * reach them), all words must match, and the last one also matches as a prefix, for search as you
 * type.
 */
import type Database from 'better-sqlite3';

export interface SearchHit {
  conversationId: string;
  title: string;
  updatedAt: number;
  /** Text around the best match, in the title or a message; `marks` are [start, end) of matched words. */
  snippet: { text: string; marks: [number, number][] };
}

const MAX_WORDS = 16;
const MAX_LIMIT = 100;
// Private-use characters as match markers: FTS5 inserts them, `toSnippet` turns them into ranges.
const OPEN = '\uE000';
const CLOSE = '\uE001';

/** The FTS5 query for what a person typed, or null when it has no word to look for. */
export function ftsQuery(typed: string): string | null {
  const words = typed
    .normalize('NFC')
    .split(/[^\p{L}\p{N}\p{M}_']+/u)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, MAX_WORDS);
  if (words.length === 0) return null;
  const quoted = words.map((w) => `"${w.replace(/"/g, '""')}"`);
  quoted[quoted.length - 1] += '*';
  return quoted.join(' ');
}

function toSnippet(marked: string): SearchHit['snippet'] {
  const marks: [number, number][] = [];
  let text = '';
  let start = -1;
  for (const ch of marked) {
    if (ch === OPEN) start = text.length;
    else if (ch === CLOSE) {
      if (start >= 0) marks.push([start, text.length]);
      start = -1;
    } else text += ch;
  }
  return { text, marks };
}

interface Row {
  id: string;
  title: string;
  updated_at: number;
  snip: string;
  rank: number;
}

export class ConversationSearch {
  private readonly titles: Database.Statement<[string, number], Row>;
  private readonly bestMessages: Database.Statement<[string, number], Omit<Row, 'snip'> & { rid: number }>;
  private readonly messageSnippet: Database.Statement<[string, number], { snip: string }>;

  constructor(db: Database.Database) {
    this.titles = db.prepare(
      `SELECT c.id, c.title, c.updated_at, highlight(titles_fts, 0, '${OPEN}', '${CLOSE}') AS snip, bm25(titles_fts) AS rank
         FROM titles_fts JOIN conversations c ON c.rid = titles_fts.rowid
        WHERE titles_fts MATCH ? ORDER BY rank LIMIT ?`,
    );
    // The best message of each conversation. FTS5's functions cannot run under a window
    // function, so the ranks are taken first and the snippets of the winners after.
    this.bestMessages = db.prepare(
      `WITH ranked AS MATERIALIZED (
          SELECT m.conversation_id AS cid, messages_fts.rowid AS rid, bm25(messages_fts) AS rank
            FROM messages_fts JOIN messages m ON m.rid = messages_fts.rowid WHERE messages_fts MATCH ?
        ), best AS (SELECT cid, rid, rank, row_number() OVER (PARTITION BY cid ORDER BY rank) AS n FROM ranked)
        SELECT c.id, c.title, c.updated_at, best.rid, best.rank FROM best JOIN conversations c ON c.id = best.cid
         WHERE best.n = 1 ORDER BY best.rank LIMIT ?`,
    );
    // better-sqlite3 binds a JS number as a REAL, and FTS5 ignores a rowid constraint that is not
    // an integer: without the cast every match came back and the first one's snippet was shown
    // under every conversation.
    this.messageSnippet = db.prepare(
      `SELECT snippet(messages_fts, 0, '${OPEN}', '${CLOSE}', '…', 16) AS snip FROM messages_fts WHERE messages_fts MATCH ? AND rowid = CAST(? AS INTEGER)`,
    );
  }

  /** Conversations whose title or messages hold every word typed, best match first. */
  search(typed: string, limit = 20): SearchHit[] {
    const q = ftsQuery(typed);
    if (q === null) return [];
    const n = Math.max(1, Math.min(MAX_LIMIT, Math.floor(limit)));
    // bm25 is lower for better matches; a title match counts as better than any message match.
    const messages = this.bestMessages
      .all(q, n)
      .map((r) => ({ ...r, snip: this.messageSnippet.get(q, r.rid)?.snip ?? '' }));
    const rows = [...this.titles.all(q, n).map((r) => ({ ...r, rank: r.rank - 1e6 })), ...messages];
    rows.sort((a, b) => a.rank - b.rank);
    const seen = new Set<string>();
    const hits: SearchHit[] = [];
    for (const r of rows) {
      if (seen.has(r.id) || hits.length === n) continue;
      seen.add(r.id);
      hits.push({ conversationId: r.id, title: r.title, updatedAt: r.updated_at, snippet: toSnippet(r.snip) });
    }
    return hits;
  }
}
