/**
 * Output as a virtualized list of rows (@tanstack/react-virtual, as the message list): whatever
 * its size, only the rows in view and a few around them are in the page, so a stream of megabytes
 * costs each frame the same few dozen rows. While the output streams the view follows its end,
 * unless the person scrolled up to read; scrolling back to the end follows again. Rows do not
 * wrap (a long line scrolls sideways, cut every 2,000 characters), so every row is one height and
 * nothing needs measuring. The rows are found by row-index.ts.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type JSX } from 'react';
import { emptyIndex, rowCount, rowText, updateIndex, type RowIndex } from './row-index';

/** Time a render may spend finding rows; the rest is found in the next frames. */
const SLICE_MS = 6;

/**
 * The rows of `text`, kept up to date as it grows (one index per component, extended each
 * render). A long text is indexed a slice per frame, so opening 2 MB is no long task.
 */
export function useRowIndex(text: string): RowIndex {
  const index = useRef<RowIndex>(emptyIndex());
  const [, setSlices] = useState(0);
  updateIndex(index.current, text, performance.now() + SLICE_MS);
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
  });
  // Rows do not wrap, so the height is known: the last block may be partly filled.
  const total = count * ROW_PX;

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [total]);

  // So does the view getting its size (a dialog opens after its content is laid out).
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  return (
    <div
      ref={scroller}
      role="region"
      aria-label={label}
      // Focusable, so arrows and Page Up/Down scroll it.
      tabIndex={0}
      data-output-lines={count}
      onScroll={() => {
        const el = scroller.current;
        if (el) stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
      }}
      className={`ring-inset overflow-auto [overflow-anchor:none] ${className}`}
    >
      <div className="relative min-w-full" style={{ height: total }}>
        {virtualizer.getVirtualItems().map((v) => {
          const first = v.index * BLOCK_ROWS;
          const rows = Math.min(BLOCK_ROWS, count - first);
          return (
            <div
              key={v.key}
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
        })}
      </div>
    </div>
  );
}
