/**
 * A sent message, edited in place: Enter (or Send) sends it again, and it and everything after it
 * become an earlier version, kept and shown on request (EarlierVersion.tsx); Escape cancels.
 */
import { useState, type JSX } from 'react';
import { Button } from '../../components/Button';
import { editMessage } from '../../stores/chat/model-actions';
import { focusComposer } from '../../stores/ui';

export function EditMessage({
  conversationId,
  messageId,
  text,
  onDone,
}: {
  conversationId: string;
  messageId: string;
  text: string;
  onDone: () => void;
}): JSX.Element {
  const [draft, setDraft] = useState(text);
  const [busy, setBusy] = useState(false);
  const finish = (): void => {
    onDone();
    focusComposer();
  };
  const send = async (): Promise<void> => {
    const t = draft.trim();
    if (!t || busy) return;
    setBusy(true);
    const ok = await editMessage(conversationId, messageId, t);
    setBusy(false);
    if (ok) finish();
  };
  return (
    <div className="w-full max-w-[85%] rounded-xl border border-accent bg-bg p-2" data-editing>
      <textarea
        aria-label="Edit your message"
        // Focused as it opens, with the cursor at the end.
        autoFocus
        onFocus={(e) => e.target.setSelectionRange(e.target.value.length, e.target.value.length)}
        value={draft}
        rows={Math.min(8, Math.max(2, draft.split('\n').length))}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void send();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            finish();
          }
        }}
        className="block w-full resize-none bg-transparent text-[13.5px] leading-relaxed outline-none"
      />
      <div className="mt-1 flex items-center justify-end gap-1.5">
        <span className="mr-auto text-[11px] text-fg-subtle">What followed it is kept as an earlier version.</span>
        <Button size="sm" variant="ghost" onClick={finish}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" disabled={busy || !draft.trim()} onClick={() => void send()}>
          Send
        </Button>
      </div>
    </div>
  );
}
