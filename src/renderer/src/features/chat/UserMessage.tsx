/**
 * The user's message. Passthrough input is not stored by the server, so after a reload its text
 * is empty and we say so instead of showing an empty bubble. What plugins added to it before a
 * model read it is a note under it (EnrichmentNote.tsx).
 */
import { memo, useState, type JSX } from 'react';
import type { ChatMessage } from '../../../../shared/contract';
import { Button } from '../../components/Button';
import { CopyButton } from '../../components/CopyButton';
import { retrySend } from '../../stores/chat/actions';
import { useChat } from '../../stores/chat/state';
import { SentAttachments } from './AttachmentChips';
import { EditMessage } from './EditMessage';
import { EnrichmentNote } from './EnrichmentNote';
import { Timestamp } from './Timestamp';

export const UserMessage = memo(function UserMessage({ m }: { m: ChatMessage }): JSX.Element {
  const local = useChat((s) => s.local[m.id]);
  const conversationId = useChat((s) => s.activeId);
  const [editing, setEditing] = useState(false);
  const empty = m.text === '';
  const files = m.attachments ?? [];
  // A message the server has, typed (not passthrough), and current: it can be edited and sent
  // again, its files with it (removed or added to while editing).
  const editable = !local && !m.passthrough && !m.replaced && (!empty || files.length > 0);
  return (
    <article className="group flex flex-col items-end" aria-label="You" data-message-id={m.id} data-role="user">
      {files.length > 0 && !editing && <SentAttachments files={files} />}
      {editing && conversationId && (
        <EditMessage
          conversationId={conversationId}
          messageId={m.id}
          text={m.text}
          files={files}
          onDone={() => setEditing(false)}
        />
      )}
      {!editing && (!empty || files.length === 0) && (
        <div
          className={`max-w-[85%] rounded-xl rounded-br-sm border border-line bg-muted px-3 py-1.5 text-[13.5px] leading-relaxed break-words whitespace-pre-wrap ${
            local?.state === 'sending' ? 'opacity-70' : ''
          } ${local?.state === 'failed' ? 'border-bad/40' : ''}`}
        >
          {empty ? (
            <span className="text-fg-subtle italic">
              {m.passthrough ? '(passthrough input — not saved)' : '(empty)'}
            </span>
          ) : (
            m.text
          )}
        </div>
      )}
      <div className="mt-0.5 flex items-center gap-2 px-1 text-[11px] text-fg-subtle">
        {m.passthrough && <span>passthrough</span>}
        {m.unshared && (
          <span title="Its plugin keeps this command and its result from models">not shared with models</span>
        )}
        {local?.state === 'sending' && <span>Sending…</span>}
        {local?.state !== 'sending' && <Timestamp at={m.createdAt} />}
        {(!empty || editable) && !editing && (
          <span className="flex items-center opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100">
            {!empty && <CopyButton text={() => m.text} title="Copy your message" />}
            {editable && (
              <Button
                size="sm"
                variant="ghost"
                icon="pencil"
                onClick={() => setEditing(true)}
                title="Edit and send again"
              >
                Edit
              </Button>
            )}
          </span>
        )}
      </div>
      {m.enrichment && m.enrichment.length > 0 && <EnrichmentNote id={m.id} steps={m.enrichment} />}
      {local?.state === 'failed' && (
        <div role="alert" className="mt-1 flex max-w-[85%] items-center gap-2 text-xs text-bad">
          <span className="min-w-0 break-words">Not sent: {local.error}</span>
          <Button size="sm" variant="ghost" onClick={() => void retrySend(m.id)}>
            Retry
          </Button>
        </div>
      )}
    </article>
  );
});
