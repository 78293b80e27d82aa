/**
 * Text shown as it is (pre-wrapped), for streaming output and for output too long for markdown.
 *
 * The text is cut into blocks at line ends, about every BLOCK characters, each a memoized element:
 * while a message streams, only the last block's text node changes per frame, so the browser
 * re-lays out a few kilobytes, not the whole message. Block boundaries depend only on the text
 * before them, so they stay put as the text grows, and they are computed incrementally.
 */
import { memo, useRef, type JSX } from 'react';

const BLOCK = 2048;
/** A very long line is cut anyway, so one giant line cannot defeat the blocking. */
const HARD = 16_384;

const Block = memo(function Block({ text }: { text: string }): JSX.Element {
  return <div>{text}</div>;
});

function extendBounds(text: string, bounds: number[]): void {
  let start = bounds.length > 0 ? bounds[bounds.length - 1]! : 0;
  while (text.length - start > BLOCK) {
    const nl = text.indexOf('\n', start + BLOCK);
    let cut: number;
    if (nl !== -1 && nl < start + HARD) cut = nl + 1;
    else if (text.length >= start + HARD) cut = start + HARD;
    else break;
    bounds.push(cut);
    start = cut;
  }
}

const caret = <span className="pb-pulse ml-0.5 inline-block h-[1.05em] w-[0.45em] translate-y-[0.15em] rounded-[1px] bg-fg-subtle" aria-hidden="true" />;

export function PlainText({ text, streaming }: { text: string; streaming: boolean }): JSX.Element {
  const cache = useRef<{ bounds: number[]; check: string }>({ bounds: [], check: '' });
  const c = cache.current;
  // Text normally only grows. If it changed otherwise (the final text replaced it), start over:
  // the few characters before the last boundary tell, without comparing the whole text.
  const at = c.bounds.length > 0 ? c.bounds[c.bounds.length - 1]! : 0;
  if (text.length < at || text.slice(Math.max(0, at - 32), at) !== c.check) c.bounds = [];
  extendBounds(text, c.bounds);
  const end = c.bounds.length > 0 ? c.bounds[c.bounds.length - 1]! : 0;
  c.check = text.slice(Math.max(0, end - 32), end);

  const done: string[] = [];
  let start = 0;
  for (const b of c.bounds) {
    done.push(text.slice(start, b));
    start = b;
  }
  return (
    <div className="break-words whitespace-pre-wrap">
      {done.map((p, i) => (
        <Block key={i} text={p} />
      ))}
      <div>
        {text.slice(start)}
        {streaming && caret}
      </div>
    </div>
  );
}
