/**
 * A sent message, edited in place: Enter (or Send) sends it again, and it and everything after it
 * become an earlier version, kept and shown on request (EarlierVersion.tsx); Escape cancels. Its
 * files go again unless removed here, and files can be added with the paperclip, under the same
 * caps as the composer's; the earlier version keeps the files it was sent with.
 */
import { useEffect, useRef, useState, type JSX } from 'react';
import type { AttachmentInfo } from '../../../../shared/attachments';
import { Button } from '../../components/Button';
import { draftsOf, type AttachmentDraft } from '../../stores/chat/attachments';
import { editMessage } from '../../stores/chat/model-actions';
import { focusComposer } from '../../stores/ui';
import { AttachButton } from './AttachButton';
import { DraftChips } from './AttachmentChips';

const KEPT = 'kept:';

export function EditMessage({
  conversationId,
  messageId,
  text,
  files,
  onDone,
}: {
  conversationId: string;
  messageId: string;
  text: string;
  files: readonly AttachmentInfo[];
  onDone: () => void;
}): JSX.Element {
  const [draft, setDraft] = useState(text);
  const [busy, setBusy] = useState(false);
  const [kept, setKept] = useState<readonly AttachmentInfo[]>(files);
  const [added, setAdded] = useState<readonly AttachmentDraft[]>([]);
  const [refused, setRefused] = useState<string[]>([]);
  const area = useRef<HTMLTextAreaElement>(null);
  // Focused as it opens, with the cursor at the end (once: coming back to it later, from a file
  // chip or the picker, leaves the cursor where the person puts it).
  useEffect(() => {
    const el = area.current;
    el?.focus();
    el?.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const chips = [...kept.map((a) => ({ ...a, key: `${KEPT}${a.id}` })), ...added];
  const sendable = draft.trim() !== '' || chips.length > 0;
  const finish = (): void => {
    onDone();
    focusComposer();
  };
  const send = async (): Promise<void> => {
    if (!sendable || busy) return;
    setBusy(true);
    const ok = await editMessage(conversationId, messageId, draft.trim(), { keep: kept.map((a) => a.id), added });
    setBusy(false);
    if (ok) finish();
  };
  const add = async (picked: readonly File[]): Promise<void> => {
    const r = await draftsOf(picked, chips);
    setAdded((now) => [...now, ...r.added]);
    setRefused(r.refused);
  };
  const remove = (key: string): void => {
    if (key.startsWith(KEPT)) setKept((now) => now.filter((a) => `${KEPT}${a.id}` !== key));
    else setAdded((now) => now.filter((d) => d.key !== key));
    setRefused([]);
  };
  return (
    <div className="w-full max-w-[85%] rounded-xl border border-accent bg-bg p-2" data-editing>
      <DraftChips label="Files to send again" className="pb-0.5" drafts={chips} onRemove={remove} />
      {refused.length > 0 && (
        <ul role="alert" className="space-y-0.5 pt-1.5 text-xs text-bad">
          {refused.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
      <textarea
        ref={area}
        aria-label="Edit your message"
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
        className={`block w-full resize-none bg-transparent text-[13.5px] leading-relaxed outline-none ${chips.length > 0 ? 'mt-1.5' : ''}`}
      />
      <div className="mt-1 flex items-center justify-end gap-1.5">
        <AttachButton inputLabel="Files to attach to the edited message" onFiles={(picked) => void add(picked)} />
        <span className="mr-auto text-[11px] text-fg-subtle">What followed it is kept as an earlier version.</span>
        <Button size="sm" variant="ghost" onClick={finish}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" disabled={busy || !sendable} onClick={() => void send()}>
          Send
        </Button>
      </div>
    </div>
  );
}
