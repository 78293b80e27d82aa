/**
 * The conversation list: create, open, search, rename (F2 or the pencil), export (E or the
 * download icon), delete (Delete or the bin, with a confirmation). Newest activity first. The
 * list is one Tab stop (the open conversation); arrows move inside it.
 */
import { useState, type JSX } from 'react';
import { Button, IconButton } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { createConversation, deleteConversation } from '../../stores/chat/actions';
import { useChat } from '../../stores/chat/state';
import { useConversationSearch } from '../../stores/conversation-search';
import { ConversationSearchField, ConversationSearchResults } from '../conversations/ConversationSearch';
import { ExportDialog } from '../conversations/ExportDialog';
import { ConversationItem } from './ConversationItem';

export function ConversationSidebar(): JSX.Element {
  const list = useChat((s) => s.list);
  const listLoaded = useChat((s) => s.listLoaded);
  const listError = useChat((s) => s.listError);
  const activeId = useChat((s) => s.activeId);
  const hits = useConversationSearch((s) => s.hits);
  const [deleting, setDeleting] = useState<{ id: string; title: string } | null>(null);
  const [exporting, setExporting] = useState<{ id: string; title: string } | null>(null);
  const tabStop = list.some((c) => c.id === activeId) ? activeId : list[0]?.id;
  return (
    <nav aria-label="Conversations" className="flex h-full w-60 shrink-0 flex-col border-r border-line bg-subtle">
      <div className="flex items-center gap-1 px-2 pt-2 pb-1">
        <h2 className="flex-1 px-1.5 text-[11px] font-semibold tracking-wide text-fg-subtle uppercase">
          Conversations
        </h2>
        <IconButton icon="plus" label="New conversation" size="sm" onClick={() => void createConversation()} />
      </div>
      <ConversationSearchField />
      <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
        {hits && <ConversationSearchResults hits={hits} />}
        {!listLoaded && <p className="px-2 py-1 text-xs text-fg-subtle">Loading…</p>}
        {listError && <p className="px-2 py-1 text-xs text-bad">Could not load conversations: {listError}</p>}
        {!hits && listLoaded && !listError && list.length === 0 && (
          <div className="px-2 py-2 text-xs text-fg-subtle">
            <p>No conversations yet.</p>
            <Button
              size="sm"
              variant="ghost"
              icon="plus"
              className="-ml-2 mt-1"
              onClick={() => void createConversation()}
            >
              Start one
            </Button>
          </div>
        )}
        {!hits && (
          <ul className="space-y-px" data-roving-list>
            {list.map((c) => (
              <ConversationItem
                key={c.id}
                c={c}
                tabStop={c.id === tabStop}
                onDelete={() => setDeleting({ id: c.id, title: c.title })}
                onExport={() => setExporting({ id: c.id, title: c.title })}
              />
            ))}
          </ul>
        )}
      </div>
      {exporting && <ExportDialog id={exporting.id} title={exporting.title} onClose={() => setExporting(null)} />}
      {deleting && (
        <Dialog
          title="Delete conversation?"
          width="w-[400px]"
          onClose={() => setDeleting(null)}
          footer={
            <>
              <Button data-autofocus onClick={() => setDeleting(null)}>
                Cancel
              </Button>
              <Button
                variant="danger"
                icon="trash"
                onClick={() => {
                  void deleteConversation(deleting.id);
                  setDeleting(null);
                }}
              >
                Delete
              </Button>
            </>
          }
        >
          <p className="text-[13px] text-fg-muted">
            “{deleting.title || 'Untitled'}” and its messages will be deleted. This cannot be undone.
          </p>
        </Dialog>
      )}
    </nav>
  );
}
