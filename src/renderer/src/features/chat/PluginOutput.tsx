/**
 * What a plugin said, in a message or a tool-call card. While streaming, text is shown plain
 * (cheap to update every frame); when it ends it becomes markdown, unless it is very long, where
 * parsing would stall the window. Text that is one code fence as a whole (the terminal's output)
 * shows without the fence, in a code font. A result that is not text is a table or a tree
 * (results/ResultView.tsx); one that comes with streamed text (a command's exit code and output
 * tail) is there on request, below the text.
 *
 * The plain text keeps its place in the tree from the first chunk to the end, so a long stream
 * that finishes is not laid out again from scratch. Output longer than a screenful (issue 21)
 * shows a screenful, virtualized, with "Show all" (output/).
 */
import { useState, type JSX } from 'react';
import type { ChatMessage } from '../../../../shared/contract';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { usePlugins } from '../../stores/plugins';
import { Markdown } from './LazyMarkdown';
import { Clipped } from './output/Clipped';
import { LongOutput, SCREEN_ROWS } from './output/LongOutput';
import { useRowIndex } from './output/OutputLines';
import { rowCount } from './output/row-index';
import { PlainText } from './PlainText';
import { unfence } from './plain-fence';
import { ResultView } from './results/ResultView';

/** Above this, finished text stays plain: markdown parsing is synchronous and grows with size. */
export const MARKDOWN_MAX_CHARS = 60_000;

function hasResult(m: ChatMessage): boolean {
  return m.result !== undefined && m.result !== null;
}

/** The structured result behind a text answer, closed until asked for. */
function ResultBehindText({ value }: { value: unknown }): JSX.Element {
  const [open, setOpen] = useState(false);
  return (
    <div className="mt-1.5">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="inline-flex items-center gap-1 rounded text-[11.5px] font-medium text-fg-muted hover:text-fg"
      >
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={11} />
        Result
      </button>
      {open && (
        <div className="mt-1">
          <ResultView value={value} />
        </div>
      )}
    </div>
  );
}

/** Text output: a screenful at most, whatever its size (output/LongOutput.tsx, output/Clipped.tsx). */
function TextOutput({ m, streaming }: { m: ChatMessage; streaming: boolean }): JSX.Element {
  const pluginName = usePlugins((s) => (m.pluginId ? s.byId[m.pluginId]?.name : undefined)) ?? m.pluginId ?? 'Plugin';
  const { body, fenced, cut } = unfence(m.text);
  const index = useRowIndex(body, cut);
  const tooLong = m.text.length > MARKDOWN_MAX_CHARS;
  const markdown = !streaming && !tooLong && !fenced;
  const note =
    tooLong && !streaming
      ? `Long output (${m.text.length.toLocaleString()} characters) is shown as plain text.`
      : undefined;
  const result = !streaming && hasResult(m) && <ResultBehindText value={m.result} />;
  if (!markdown && rowCount(index) > SCREEN_ROWS)
    return (
      <>
        <LongOutput
          body={body}
          index={index}
          fenced={fenced}
          streaming={streaming}
          title={`${pluginName}${m.tool ? ` ${m.tool}` : ''}`}
          copyText={() => body}
          {...(note ? { note } : {})}
        />
        {result}
      </>
    );
  return (
    <>
      {streaming || tooLong ? (
        <PlainText key="plain" text={m.text} streaming={streaming} />
      ) : (
        <Clipped key="md">
          <Markdown text={m.text} />
        </Clipped>
      )}
      {note && <p className="mt-1 text-[11px] text-fg-subtle">{note}</p>}
      {result}
    </>
  );
}

export function PluginOutput({ m }: { m: ChatMessage }): JSX.Element | null {
  const streaming = m.status === 'streaming';
  if (m.text) return <TextOutput m={m} streaming={streaming} />;
  if (hasResult(m))
    return (
      <Clipped>
        <ResultView value={m.result} />
      </Clipped>
    );
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
