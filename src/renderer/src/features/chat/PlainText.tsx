/**
 * Text shown as it is (pre-wrapped), for streaming output and for output too long for markdown.
 *
 * The text is cut into blocks at line ends (text-blocks.ts), each a memoized element: while a
 * message streams, only the last block's text node changes per frame, so the browser re-lays out
 * a few kilobytes, not the whole message. The cuts are kept between renders and only extended.
 */
import { memo, useRef, type JSX } from 'react';
import { blocksOf, emptyCuts, updateCuts, type BlockCuts } from './text-blocks';

const Block = memo(function Block({ text }: { text: string }): JSX.Element {
  return <div>{text}</div>;
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
