/**
 * Output longer than a screenful, in a card: a screenful of it in a virtualized view that follows
 * the end while it streams (OutputLines.tsx), how many lines there are, "Show all" (the whole of
 * it in a dialog, virtualized too) and Copy. The conversation around it keeps its height whatever
 * the output's size: a 2 MiB result is one screenful tall, not millions of pixels.
 */
import { useState, type JSX } from 'react';
import { Button } from '../../../components/Button';
import { CopyButton } from '../../../components/CopyButton';
import { Dialog } from '../../../components/Dialog';
import { OutputLines } from './OutputLines';
import { rowCount, type RowIndex } from './row-index';

/** A screenful in a card: this many rows of 18 px (the box's height is set to match). */
export const SCREEN_ROWS = 20;
// A fixed height (the output is always taller: a screenful and more), so the box can be a layout
// root (OutputLines): the rows a stream adds each frame are laid out alone, not the whole page.
const BOX = 'h-[360px] rounded-md border border-line bg-subtle px-2.5 py-1.5';

export function LongOutput({
  body,
  index,
  fenced,
  streaming,
  title,
  copyText,
  note,
}: {
  /** The text to show (inside its fence, when it had one). */
  body: string;
  index: RowIndex;
  fenced: boolean;
  streaming: boolean;
  /** Whose output it is, for the dialog's title. */
  title: string;
  copyText: () => string;
  note?: string;
}): JSX.Element {
  const [all, setAll] = useState(false);
  const lines = rowCount(index);
  return (
    <div data-long-output>
      <OutputLines text={body} index={index} mono={fenced} follow className={BOX} label="Output" />
      <div className="mt-1 flex flex-wrap items-center gap-x-2 text-[11px] text-fg-subtle">
        <span data-output-count>
          {!index.complete
            ? `Counting lines… ${lines.toLocaleString()}`
            : `${lines.toLocaleString()} lines${streaming ? ' so far' : ''}`}
        </span>
        <span className="ml-auto flex items-center gap-1">
          <Button size="sm" variant="ghost" icon="chevronDown" onClick={() => setAll(true)} aria-haspopup="dialog">
            Show all
          </Button>
          {!streaming && <CopyButton text={copyText} label="Copy all" title="Copy the whole output" />}
        </span>
      </div>
      {/* On a line of its own: beside the count it wrapped mid-sentence in a narrow window. */}
      {note && <p className="text-[11px] text-fg-subtle">{note}</p>}
      {all && (
        <Dialog title={`${title} — ${lines.toLocaleString()} lines`} onClose={() => setAll(false)} width="w-[1100px]">
          <OutputLines
            text={body}
            index={index}
            mono={fenced}
            // Opened where the card was: at the end, following it while it streams.
            follow
            className="h-[min(640px,calc(100vh-140px))] rounded-md border border-line bg-subtle px-3 py-1.5"
            label="All output"
          />
        </Dialog>
      )}
    </div>
  );
}
