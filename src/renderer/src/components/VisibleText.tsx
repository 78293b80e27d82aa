/**
 * Text as it is (shared/visible-text.ts): what a screen would not show, or would show as
 * something else, drawn as a marked chip in its place: hidden tag text decoded, invisible and
 * bidi characters by their code points, HTML comments outlined, look-alike letters underlined.
 * Plain text is drawn as it is. A mark's title says what it is.
 */
import type { JSX } from 'react';
import { HIDDEN_TITLES, hasHidden, segments } from '../../../shared/visible-text';

export function VisibleText({ text, name = false }: { text: string; name?: boolean }): JSX.Element {
  if (!hasHidden(text, { name })) return <>{text}</>;
  return (
    <>
      {segments(text, { name }).map((s, i) =>
        !s.hidden ? (
          <span key={i}>{s.text}</span>
        ) : s.hidden === 'comment' ? (
          <span
            key={i}
            data-hidden-text={s.hidden}
            title={HIDDEN_TITLES.comment}
            className="rounded-sm bg-warn-soft text-warn outline outline-1 outline-warn/40"
          >
            {s.text}
          </span>
        ) : s.hidden === 'look-alike' ? (
          <span
            key={i}
            data-hidden-text={s.hidden}
            title={`${HIDDEN_TITLES['look-alike']}: ${s.shown}`}
            className="text-warn underline decoration-warn decoration-wavy"
          >
            {s.text}
          </span>
        ) : (
          <mark
            key={i}
            data-hidden-text={s.hidden}
            title={HIDDEN_TITLES[s.hidden]}
            className="mx-px rounded-sm bg-warn-soft px-0.5 font-mono text-[0.85em] text-warn outline outline-1 outline-warn/40"
          >
            {s.shown}
          </mark>
        ),
      )}
    </>
  );
}
