/**
 * What a plugin said, in a message or a tool-call card. While streaming, text is shown plain
 * (cheap to update every frame); when it ends it becomes markdown, unless it is very long, where
 * parsing would stall the window.
 */
import type { JSX } from 'react';
import { resultText } from '../../../../shared/chunks';
import type { ChatMessage } from '../../../../shared/contract';
import { Spinner } from '../../components/Spinner';
import { Markdown } from './Markdown';
import { PlainText } from './PlainText';

/** Above this, finished text stays plain: markdown parsing is synchronous and grows with size. */
export const MARKDOWN_MAX_CHARS = 60_000;

export function PluginOutput({ m }: { m: ChatMessage }): JSX.Element | null {
  const streaming = m.status === 'streaming';
  if (m.text) {
    if (streaming) return <PlainText text={m.text} streaming />;
    if (m.text.length <= MARKDOWN_MAX_CHARS) return <Markdown text={m.text} />;
    return (
      <>
        <PlainText text={m.text} streaming={false} />
        <p className="mt-1 text-[11px] text-fg-subtle">Long output ({m.text.length.toLocaleString()} characters) is shown as plain text.</p>
      </>
    );
  }
  if (m.result !== undefined && m.result !== null) {
    return <pre className="overflow-x-auto rounded-md border border-line bg-subtle px-2.5 py-2 font-mono text-xs">{resultText(m.result)}</pre>;
  }
  if (streaming) {
    return (
      <p className="flex items-center gap-2 text-fg-subtle">
        <Spinner /> Working…
      </p>
    );
  }
  // Passthrough replies are not stored; after a reload only the fact of the reply remains.
  if (m.passthrough && !m.failure) return <p className="text-fg-subtle italic">(passthrough reply — not saved)</p>;
  return null;
}

