/**
 * Text shown as it is (pre-wrapped), for streaming output and for output too long for markdown.
 *
 * The text is cut into blocks at line ends (text-blocks.ts), each a memoized element: while a
 * message streams, only the last block's text node changes per frame, so the browser re-lays out
 * a few kilobytes, not the whole message. The cuts are kept between renders and only extended.
 */
import { memo, useRef, type JSX } from 'react';
import { blocksOf, emptyCuts, updateCuts, type BlockCuts } from './text-blocks';

/** Line height of the chat's text, for a block's size before it was ever laid out. */
const LINE_PX = 22;

/**
 * A finished block is laid out only when it is near the viewport (`content-visibility: auto`):
 * a fast stream appends dozens of blocks per frame, and with the view following the end only the
 * last ones are seen. Until a block has been laid out it takes the height of its line count; the
 * browser then remembers its real size. The text stays in the page for find and screen readers.
 */
const Block = memo(function Block({ text }: { text: string }): JSX.Element {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) lines++;
  return <div style={{ contentVisibility: 'auto', containIntrinsicSize: `auto ${lines * LINE_PX}px` }}>{text}</div>;
});

const caret = <span className="pb-pulse ml-0.5 inline-block h-[1.05em] w-[0.45em] translate-y-[0.15em] rounded-[1px] bg-fg-subtle" aria-hidden="true" />;

export function PlainText({ text, streaming }: { text: string; streaming: boolean }): JSX.Element {
  const cuts = useRef<BlockCuts>(emptyCuts());
  updateCuts(text, cuts.current);
  const blocks = blocksOf(text, cuts.current);
  const open = blocks.pop() ?? '';
  return (
    <div className="break-words whitespace-pre-wrap">
      {blocks.map((p, i) => (
        <Block key={i} text={p} />
      ))}
      <div>
        {open}
        {streaming && caret}
      </div>
    </div>
  );
}
