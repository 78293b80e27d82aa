/**
 * Text shown as it is (pre-wrapped), for streaming output and for output too long for markdown.
 * Output that is one code fence (plain-fence.ts) shows what is inside, in a code font.
 *
 * The text is cut into blocks at line ends (text-blocks.ts), each a memoized element: while a
 * message streams, only the last block's text node changes per frame, so the browser re-lays out
 * a few kilobytes, not the whole message. The cuts are kept between renders and only extended;
 * older blocks are joined into groups, so 2 MB is some eighty elements, not a thousand.
 */
import { memo, useEffect, useRef, useState, type JSX } from 'react';
import { unfence } from './plain-fence';
import { emptyCuts, piecesOf, updateCuts, type BlockCuts } from './text-blocks';

/** Line height of the chat's text, for a block's size before it was ever laid out. */
const LINE_PX = 22;
const MONO_LINE_PX = 18;

/**
 * A finished block is laid out only when it is near the viewport (`content-visibility: auto`):
 * a fast stream appends dozens of blocks per frame, and with the view following the end only the
 * last ones are seen. Until a block has been laid out it takes the height of its line count; the
 * browser then remembers its real size. The text stays in the page for find and screen readers.
 *
 * Chromium lays out an `auto` element's contents in the frame it is inserted, before it knows the
 * element is off screen: a group made while a stream runs (32 KB, above the view) cost a layout
 * of its whole text, two groups a frame at 2 MB/s, 25 to 45 ms of layout each frame (measured in
 * a trace). So a group made during a stream starts `hidden` (skipped) and turns `auto` a frame
 * later, when its first layout is the cheap one of an off-screen element.
 */
const Block = memo(BlockView, (a, b) => a.text === b.text && a.linePx === b.linePx);

/** `skipFirst` counts only when the block is made (the comparison above leaves it out). */
function BlockView({ text, linePx, skipFirst }: { text: string; linePx: number; skipFirst?: boolean }): JSX.Element {
  const [shown, setShown] = useState(!skipFirst);
  useEffect(() => {
    if (shown) return;
    const frame = requestAnimationFrame(() => setShown(true));
    return () => cancelAnimationFrame(frame);
  }, [shown]);
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) lines++;
  return (
    <div style={{ contentVisibility: shown ? 'auto' : 'hidden', containIntrinsicSize: `auto ${lines * linePx}px` }}>
      {text}
    </div>
  );
}

const caret = (
  <span
    className="pb-pulse ml-0.5 inline-block h-[1.05em] w-[0.45em] translate-y-[0.15em] rounded-[1px] bg-fg-subtle"
    aria-hidden="true"
  />
);

export const PlainText = memo(function PlainText({
  text,
  streaming,
}: {
  text: string;
  streaming: boolean;
}): JSX.Element {
  const cuts = useRef<BlockCuts>(emptyCuts());
  const { body, fenced } = unfence(text);
  updateCuts(body, cuts.current);
  const { groups, blocks, first, open } = piecesOf(body, cuts.current);
  const linePx = fenced ? MONO_LINE_PX : LINE_PX;
  return (
    <div
      className={`break-words whitespace-pre-wrap ${fenced ? 'rounded-md border border-line bg-subtle px-2.5 py-1.5 font-mono text-xs leading-[18px]' : ''}`}
      data-plain-text={fenced ? 'code' : 'text'}
    >
      {groups.map((p, i) => (
        <Block key={`g${i}`} text={p} linePx={linePx} skipFirst={streaming} />
      ))}
      {blocks.map((p, i) => (
        <Block key={first + i} text={p} linePx={linePx} />
      ))}
      <div>
        {open}
        {streaming && caret}
      </div>
    </div>
  );
});
