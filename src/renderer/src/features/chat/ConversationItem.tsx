/** One conversation in the sidebar, with inline rename. */
import { memo, useState, type JSX } from 'react';
import type { ConversationSummary } from '../../../../shared/contract';
import { IconButton } from '../../components/Button';
import { formatRelative } from '../../lib/format';
import { renameConversation, selectConversation } from '../../stores/chat/actions';
import { hasRunningTurn } from '../../stores/chat/running';
import { useChat } from '../../stores/chat/state';
import { focusComposer } from '../../stores/ui';
import { moveInList } from '../conversations/roving';
import { TitleText } from '../conversations/TitleText';

export const ConversationItem = memo(function ConversationItem({
  c,
  tabStop,
  onDelete,
  onExport,
}: {
  c: ConversationSummary;
  /** The list's one Tab stop (the open conversation, else the first). */
  tabStop: boolean;
  onDelete: () => void;
  onExport: () => void;
}): JSX.Element {
  const active = useChat((s) => s.activeId === c.id);
  const running = useChat((s) => hasRunningTurn(s.running, c.id));
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(c.title);
  const title = c.title || 'Untitled';

  const save = (): void => {
    setEditing(false);
    const t = draft.trim();
    if (t && t !== c.title) void renameConversation(c.id, t);
  };

  if (editing) {
    return (
      <li>
        <input
          aria-label="Conversation title"
          autoFocus
          value={draft}
          maxLength={200}
          onChange={(e) => setDraft(e.target.value)}
          onFocus={(e) => e.target.select()}
          onBlur={save}
          onKeyDown={(e) => {
            // Renamed (or not) from the keyboard, the keyboard goes back to the composer.
            if (e.key === 'Enter') {
              save();
              focusComposer();
            }
            if (e.key === 'Escape') {
              e.preventDefault();
              setEditing(false);
              focusComposer();
            }
          }}
          className="h-8 w-full rounded-md border border-accent bg-bg px-2 text-[13px] outline-none"
        />
      </li>
    );
  }

  return (
    <li className={`group relative flex items-center rounded-md ${active ? 'bg-emphasis' : 'hover:bg-muted'}`}>
      <button
        type="button"
        aria-current={active ? 'page' : undefined}
        data-conversation-button
        data-roving-item
        tabIndex={tabStop ? 0 : -1}
        aria-keyshortcuts="F2 Delete E"
        onClick={() => selectConversation(c.id)}
        onKeyDown={(e) => {
          if (e.key === 'F2') {
            e.preventDefault();
            setDraft(c.title);
            setEditing(true);
          } else if (e.key === 'Delete') {
            e.preventDefault();
            onDelete();
          } else if (e.key === 'e' || e.key === 'E') {
            e.preventDefault();
            onExport();
          } else moveInList(e);
        }}
        className="flex h-8 min-w-0 flex-1 items-center gap-2 rounded-md px-2 text-left"
        title={title}
      >
        {running && <span className="pb-pulse h-1.5 w-1.5 shrink-0 rounded-full bg-info" aria-hidden="true" />}
        <span className={`flex min-w-0 flex-1 text-[13px] ${active ? 'font-medium text-fg' : 'text-fg-muted'}`}>
          <TitleText title={title} />
          {running && <span className="sr-only">, running</span>}
        </span>
        <span className="shrink-0 text-[11px] text-fg-subtle tabular-nums group-focus-within:hidden group-hover:hidden">
          {formatRelative(c.updatedAt)}
        </span>
      </button>
      <div className="absolute right-1 hidden items-center group-focus-within:flex group-hover:flex">
        {/* Out of the Tab order (F2, E and Delete on the item do the same), so the list is one Tab stop. */}
        <IconButton
          icon="pencil"
          size="sm"
          tabIndex={-1}
          label={`Rename ${title}`}
          onClick={() => {
            setDraft(c.title);
            setEditing(true);
          }}
        />
        <IconButton icon="download" size="sm" tabIndex={-1} label={`Export ${title}`} onClick={onExport} />
        <IconButton icon="trash" size="sm" tabIndex={-1} label={`Delete ${title}`} onClick={onDelete} />
      </div>
    </li>
  );
});
