/**
 * Attached files as chips: in the composer and in a message being edited (each with a remove
 * button, before sending) and in a sent message (images shown, fetched by id once; text files named with their size).
 */
import { memo, useEffect, useState, type JSX } from 'react';
import { describeBytes, type AttachmentInfo } from '../../../../shared/attachments';
import { Icon } from '../../components/Icon';
import { attachmentUrl, type AttachmentDraft } from '../../stores/chat/attachments';

const chip = 'flex h-7 max-w-[240px] items-center gap-1.5 rounded-md border border-line bg-subtle pl-2 text-xs text-fg';

export function DraftChips({
  drafts,
  onRemove,
  label = 'Files to send',
  className = 'px-2 pt-2',
}: {
  drafts: readonly Pick<AttachmentDraft, 'key' | 'name' | 'kind' | 'size'>[];
  onRemove(key: string): void;
  label?: string;
  className?: string;
}): JSX.Element | null {
  if (drafts.length === 0) return null;
  return (
    <ul aria-label={label} className={`flex flex-wrap gap-1.5 ${className}`}>
      {drafts.map((d) => (
        <li key={d.key} className={chip} data-kind={d.kind}>
          <Icon name={d.kind === 'image' ? 'image' : 'file'} size={13} className="shrink-0 text-fg-muted" />
          <span className="min-w-0 truncate" title={d.name}>
            {d.name}
          </span>
          <span className="shrink-0 text-fg-subtle tabular-nums">{describeBytes(d.size)}</span>
          <button
            type="button"
            aria-label={`Remove ${d.name}`}
            title={`Remove ${d.name}`}
            onClick={() => onRemove(d.key)}
            className="flex h-full w-6 shrink-0 items-center justify-center rounded-r-md text-fg-muted hover:bg-muted hover:text-fg"
          >
            <Icon name="x" size={12} />
          </button>
        </li>
      ))}
    </ul>
  );
}

function SentImage({ a }: { a: AttachmentInfo }): JSX.Element {
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    // A message not yet accepted by the server has no stored bytes to fetch.
    if (a.id.startsWith('local-')) return;
    let live = true;
    void attachmentUrl(a.id).then((u) => live && setUrl(u));
    return () => {
      live = false;
    };
  }, [a.id]);
  if (!url) {
    return (
      <span className={`${chip} pr-2`}>
        <Icon name="image" size={13} className="shrink-0 text-fg-muted" />
        <span className="min-w-0 truncate">{a.name}</span>
        {url === null && <span className="text-fg-subtle">(not available)</span>}
      </span>
    );
  }
  return (
    <img
      src={url}
      alt={a.name}
      title={`${a.name} · ${describeBytes(a.size)}`}
      className="max-h-48 min-h-10 max-w-[320px] min-w-10 rounded-lg border border-line bg-subtle object-contain"
    />
  );
}

export const SentAttachments = memo(function SentAttachments({
  files,
}: {
  files: readonly AttachmentInfo[];
}): JSX.Element {
  return (
    <ul aria-label="Attached files" className="mb-1 flex max-w-[85%] flex-wrap justify-end gap-1.5">
      {files.map((a) => (
        <li key={a.id} data-kind={a.kind}>
          {a.kind === 'image' ? (
            <SentImage a={a} />
          ) : (
            <span className={`${chip} pr-2`} title={`${a.name}: its text went to the model with this message`}>
              <Icon name="file" size={13} className="shrink-0 text-fg-muted" />
              <span className="min-w-0 truncate">{a.name}</span>
              <span className="shrink-0 text-fg-subtle tabular-nums">{describeBytes(a.size)}</span>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
});
