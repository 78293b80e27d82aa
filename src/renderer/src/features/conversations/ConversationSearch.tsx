/**
 * Searching conversations: the field, and the hits that replace the list while it holds words.
 * Hits are found in the store (FTS5 over titles and messages); each shows where the words matched.
 * Down from the field goes to the first hit; Escape empties the field.
 */
import type { JSX } from 'react';
import type { ConversationHit } from '../../../../shared/contract';
import { Icon } from '../../components/Icon';
import { formatRelative } from '../../lib/format';
import { selectConversation } from '../../stores/chat/actions';
import { useChat } from '../../stores/chat/state';
import { setSearchQuery, useConversationSearch } from '../../stores/conversation-search';
import { moveInList } from './roving';
import { plainSnippet } from './snippet';
import { TitleText } from './TitleText';

export function ConversationSearchField(): JSX.Element {
  const query = useConversationSearch((s) => s.query);
  return (
    <label className="mx-2 mb-1 flex items-center gap-1.5 rounded-md border border-line bg-bg px-2 focus-within:border-accent">
      <Icon name="search" size={13} className="text-fg-subtle" />
      <input
        type="search"
        value={query}
        aria-label="Search conversations"
        placeholder="Search titles and messages"
        onChange={(e) => setSearchQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && query) {
            e.preventDefault();
            setSearchQuery('');
          } else if (e.key === 'ArrowDown') {
            const first = e.currentTarget.closest('nav')?.querySelector<HTMLElement>('[data-roving-item]');
            if (first) {
              e.preventDefault();
              first.focus();
            }
          }
        }}
        className="h-7 min-w-0 flex-1 bg-transparent text-xs outline-none placeholder:text-fg-subtle"
      />
    </label>
  );
}

function Snippet({ snippet: raw }: { snippet: ConversationHit['snippet'] }): JSX.Element | null {
  if (!raw.text) return null;
  const snippet = plainSnippet(raw);
  const parts: JSX.Element[] = [];
  let at = 0;
  snippet.marks.forEach(([start, end], i) => {
    if (start > at) parts.push(<span key={`t${i}`}>{snippet.text.slice(at, start)}</span>);
    parts.push(
      <mark key={`m${i}`} className="rounded-sm bg-accent/20 text-fg">
        {snippet.text.slice(start, end)}
      </mark>,
    );
    at = end;
  });
  if (at < snippet.text.length) parts.push(<span key="rest">{snippet.text.slice(at)}</span>);
  return <span className="line-clamp-2 text-[11px] text-fg-subtle">{parts}</span>;
}

export function ConversationSearchResults({ hits }: { hits: ConversationHit[] }): JSX.Element {
  const activeId = useChat((s) => s.activeId);
  const searching = useConversationSearch((s) => s.searching);
  const error = useConversationSearch((s) => s.error);
  if (error) return <p className="px-2 py-1 text-xs text-bad">Could not search: {error}</p>;
  if (hits.length === 0)
    return (
      <p className="px-2 py-1 text-xs text-fg-subtle">
        {searching ? 'Searching…' : 'No conversation has these words.'}
      </p>
    );
  const stop = hits.some((h) => h.conversationId === activeId) ? activeId : hits[0]?.conversationId;
  return (
    <ul className="space-y-px" aria-label="Search results" data-roving-list>
      {hits.map((h) => (
        <li key={h.conversationId}>
          <button
            type="button"
            data-roving-item
            tabIndex={h.conversationId === stop ? 0 : -1}
            aria-current={h.conversationId === activeId ? 'page' : undefined}
            onClick={() => selectConversation(h.conversationId)}
            onKeyDown={moveInList}
            className={`flex w-full flex-col rounded-md px-2 py-1 text-left ${h.conversationId === activeId ? 'bg-emphasis' : 'hover:bg-muted'}`}
          >
            <span className="flex items-baseline gap-2">
              <span className="flex min-w-0 flex-1 text-[13px] text-fg">
                <TitleText title={h.title || 'Untitled'} />
              </span>
              <span className="shrink-0 text-[11px] text-fg-subtle tabular-nums">{formatRelative(h.updatedAt)}</span>
            </span>
            <Snippet snippet={h.snippet} />
          </button>
        </li>
      ))}
    </ul>
  );
}
