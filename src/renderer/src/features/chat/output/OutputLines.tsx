/**
 * Output as a virtualized list of rows (@tanstack/react-virtual, as the message list): whatever
 * its size, only the rows in view and a few around them are in the page, so a stream of megabytes
 * costs each frame the same few dozen rows. While the output streams the view follows its end,
 * unless the person scrolled up to read; scrolling back to the end follows again. Rows do not
 * wrap (a long line scrolls sideways, cut every 2,000 characters), so every row is one height and
 * nothing needs measuring. The rows are found by row-index.ts.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useState, type JSX } from 'react';
import { emptyIndex, rowCount, rowText, updateIndex, type RowIndex } from './row-index';

/** Time a render may spend finding rows; the rest is found in the next frames. */
const SLICE_MS = 6;

/**
 * The rows of `text`, kept up to date as it grows (one index per component, extended each
 * render). A long text is indexed a slice per frame, so opening 2 MB is no long task. `cut`:
 * characters of the message's text not in `text`, at its front (row-index.ts).
 */
export function useRowIndex(text: string, cut = 0): RowIndex {
  const index = useRef<RowIndex>(emptyIndex());
  const [, setSlices] = useState(0);
  updateIndex(index.current, text, performance.now() + SLICE_MS, cut);
  const complete = index.current.complete;
  useEffect(() => {
    if (complete) return;
    const frame = requestAnimationFrame(() => setSlices((n) => n + 1));
    return () => cancelAnimationFrame(frame);
  });
  return index.current;
}

const ROW_PX = 18;
/**
 * Rows go to the list in blocks of this many: the list library keeps a measurement per item and
 * rebuilds them all when the count changes (each frame of a stream), which for 300,000 rows was
 * most of a frame. Blocks of fixed-height rows make that 5,000 items with sizes known in advance.
 */
const BLOCK_ROWS = 64;
/** Within this distance of the end counts as "at the end". */
const STICK_PX = 24;

/**
 * A block of rows. While output streams, every block but the last keeps its text, so each is
 * compared by where its rows start and end rather than by the (new each frame) string: a frame
 * then renders the last block's rows, not every row in view.
 */
const Block = memo(
  function Block({
    text,
    index,
    first,
    rows,
    mono,
  }: {
    text: string;
    index: RowIndex;
    first: number;
    rows: number;
    mono: boolean;
    /**
     * What the comparison looks at: the block's first row start, the start after its last, and
     * the index's epoch (rows moved or replaced).
     */
    from: number;
    to: number;
    epoch: number;
  }): JSX.Element {
    return (
      <div
        className={`absolute top-0 left-0 min-w-full whitespace-pre ${mono ? 'font-mono text-xs' : ''}`}
        style={{ transform: `translateY(${first * ROW_PX}px)`, lineHeight: `${ROW_PX}px` }}
      >
        {Array.from({ length: rows }, (_, k) => (
          <div key={k} data-row={first + k} style={{ height: ROW_PX }}>
            {rowText(text, index, first + k)}
          </div>
        ))}
      </div>
    );
  },
  (a, b) =>
    a.from === b.from &&
    a.to === b.to &&
    a.epoch === b.epoch &&
    a.first === b.first &&
    a.rows === b.rows &&
    a.mono === b.mono,
);

export function OutputLines({
  text,
  index,
  mono,
  follow,
  className,
  label,
}: {
  text: string;
  /** The rows of `text` (useRowIndex). */
  index: RowIndex;
  mono: boolean;
  /** Keep the end in view as rows arrive (while streaming, and when first shown). */
  follow: boolean;
  /** The scroller's size: a screenful in a card, the whole dialog in "Show all". */
  className: string;
  label: string;
}): JSX.Element {
  const count = rowCount(index);
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(follow);

  const virtualizer = useVirtualizer({
    count: Math.ceil(count / BLOCK_ROWS),
    getScrollElement: () => scroller.current,
    estimateSize: () => BLOCK_ROWS * ROW_PX,
    overscan: 1,
    // Following the end scrolls every frame of a stream; a synchronous render for each of those
    // scroll events doubled the frame's work. While following, the last rows are rendered
    // whatever the range says (below), so the range may catch up a frame later.
    useFlushSync: false,
  });
  // Rows do not wrap, so the height is known: the last block may be partly filled.
  const total = count * ROW_PX;
  const content = useRef<HTMLDivElement>(null);
  /** Whether the person has scrolled this view themselves (wheel, keys, the scrollbar). */
  const touched = useRef(false);

  // Following the end, after the browser's own layout: a ResizeObserver's callback runs after it
  // and before the paint, so keeping the end in view (as rows arrive, and when a dialog gets its
  // size) costs no layout of its own. Done from a layout effect, it forced one every frame, of
  // the whole page when the composer had changed too.
  useEffect(() => {
    const el = scroller.current;
    const inner = content.current;
    if (!el || !inner) return;
    const ro = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
    });
    ro.observe(el);
    ro.observe(inner);
    return () => ro.disconnect();
  }, []);

  // While following, the last rows are in the page whatever the list library's range says: it
  // learns of the view's new place from a scroll event, a frame after the rows came.
  const blocks = virtualizer.getVirtualItems().map((v) => v.index);
  const lastBlock = Math.ceil(count / BLOCK_ROWS) - 1;
  if (stick.current) for (const b of [lastBlock - 1, lastBlock]) if (b >= 0 && !blocks.includes(b)) blocks.push(b);

  const byPerson = (): void => {
    touched.current = true;
  };

  return (
    <div
      ref={scroller}
      role="region"
      aria-label={label}
      // Focusable, so arrows and Page Up/Down scroll it.
      tabIndex={0}
      data-output-lines={count}
      onWheel={byPerson}
      onPointerDown={byPerson}
      onKeyDown={byPerson}
      onScroll={() => {
        // Only the person's scrolling decides whether to follow; the view's own keeps it so,
        // without measuring anything.
        const el = scroller.current;
        if (el && touched.current) stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
      }}
      // Contained (its size is set by `className`): what changes inside is laid out and painted
      // on its own, and nothing outside it is laid out again for a frame of new rows.
      className={`ring-inset overflow-auto [overflow-anchor:none] [contain:strict] ${className}`}
    >
      <div ref={content} className="relative min-w-full" style={{ height: total }}>
        {blocks.map((block) => {
          const first = block * BLOCK_ROWS;
          const rows = Math.min(BLOCK_ROWS, count - first);
          const last = first + rows;
          return (
            <Block
              key={block}
              text={text}
              index={index}
              first={first}
              rows={rows}
              mono={mono}
              from={index.starts[first] as number}
              // The last row's end: the next start, or the text's end for the open row.
              to={last < index.n ? (index.starts[last] as number) : index.length}
              epoch={index.epoch}
            />
          );
        })}
      </div>
    </div>
  );
}
