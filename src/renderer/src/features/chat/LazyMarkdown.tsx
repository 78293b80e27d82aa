/**
 * Markdown, loaded when first shown: react-markdown, GFM and the highlighter's loader are a chunk
 * of their own (Markdown.tsx), so the first paint does not wait for them. Until the chunk is in
 * (a few milliseconds from disk), the text shows as it is, wrapped the same way.
 */
import { lazy, Suspense, type JSX } from 'react';

const Real = lazy(() => import('./Markdown').then((m) => ({ default: m.Markdown })));

export function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }): JSX.Element {
  return (
    <Suspense fallback={<div className="md break-words whitespace-pre-wrap">{text}</div>}>
      <Real text={text} streaming={streaming} />
    </Suspense>
  );
}
