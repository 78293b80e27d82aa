/**
 * Output as a virtualized list of rows (@tanstack/react-virtual, as the message list): whatever
 * its size, only the rows in view and a few around them are in the page, so a stream of megabytes
 * costs each frame the same few dozen rows. While the output streams the view follows its end,
 * unless the person scrolled up to read; scrolling back to the end follows again. Rows wrap and
 * are measured as they render. The rows are found by row-index.ts.
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
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 12,
  });
  const total = virtualizer.getTotalSize();

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [total, count]);

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
      <div className="relative w-full" style={{ height: total }}>
        {virtualizer.getVirtualItems().map((v) => (
          <div
            key={v.key}
            data-index={v.index}
            ref={virtualizer.measureElement}
            className={`absolute top-0 left-0 w-full break-all whitespace-pre-wrap ${mono ? 'font-mono text-xs leading-[18px]' : 'leading-[18px]'}`}
            style={{ transform: `translateY(${v.start}px)`, minHeight: ROW_PX }}
          >
            {rowText(text, index, v.index)}
          </div>
        ))}
      </div>
    </div>
  );
}
