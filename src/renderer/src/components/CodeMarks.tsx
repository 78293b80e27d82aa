/**
 * A short text written with markdown's code marks (`context`, `secrets.json`), shown with those
 * parts as code and the rest as text: the capability texts are written so (shared/capabilities.ts)
 * and read wrong with their backticks showing. Only backticks are read; the full markdown
 * renderer would be far too much for a line of text.
 */
import type { JSX } from 'react';

export function CodeMarks({ text }: { text: string }): JSX.Element {
  const parts = text.split('`');
  // An odd count of backticks leaves the last one unmatched: the text is shown as it is.
  if (parts.length % 2 === 0) return <>{text}</>;
  return (
    <>
      {parts.map((p, i) =>
        i % 2 === 1 ? (
          <code key={i} className="rounded bg-muted px-1 font-mono text-[0.92em]">
            {p}
          </code>
        ) : (
          p
        ),
      )}
    </>
  );
}
