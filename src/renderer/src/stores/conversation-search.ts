/**
 * Full-text search over conversations (titles and messages), answered by the store's FTS5 index
 * in the main process. Typing is debounced; an answer to an older query than the latest is dropped.
 */
import { create } from 'zustand';
import type { ConversationHit } from '../../../shared/contract';
import { getApi } from '../api';
import { errorText } from './toasts';

interface SearchState {
  query: string;
  /** null: no search (the list shows every conversation). */
  hits: ConversationHit[] | null;
  searching: boolean;
  error: string | null;
}

export const useConversationSearch = create<SearchState>(() => ({
  query: '',
  hits: null,
  searching: false,
  error: null,
}));

const DEBOUNCE_MS = 120;
let timer: ReturnType<typeof setTimeout> | undefined;
let seq = 0;

export function setSearchQuery(query: string): void {
  clearTimeout(timer);
  const mine = ++seq;
  if (!query.trim()) {
    useConversationSearch.setState({ query, hits: null, searching: false, error: null });
    return;
  }
  useConversationSearch.setState({ query, searching: true });
  timer = setTimeout(() => {
    getApi()
      .invoke('chat.search', { query: query.slice(0, 500), limit: 50 })
      .then(
        (hits) => mine === seq && useConversationSearch.setState({ hits, searching: false, error: null }),
        (e: unknown) =>
          mine === seq && useConversationSearch.setState({ hits: [], searching: false, error: errorText(e) }),
      );
  }, DEBOUNCE_MS);
}
