/**
 * A conversation's title on one line, cut with an ellipsis when long; the " (2)" that tells
 * repeated titles apart stays visible when the rest is cut.
 */
import type { JSX } from 'react';

export function TitleText({ title }: { title: string }): JSX.Element {
  const numbered = /^(.+?)( \(\d+\))$/.exec(title);
  return (
    <>
      <span className="min-w-0 truncate">{numbered ? numbered[1] : title}</span>
      {numbered && <span className="shrink-0 whitespace-pre">{numbered[2]}</span>}
    </>
  );
}
