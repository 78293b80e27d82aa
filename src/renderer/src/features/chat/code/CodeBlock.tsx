/**
 * A fenced code block of markdown, highlighted once the highlighter has loaded (highlight.ts, a
 * chunk of its own fetched when the first block appears). Until then, and for a language it does
 * not know, the code shows plain, so nothing moves but the colours.
 */
import { useEffect, useMemo, useState, type JSX } from 'react';
import type * as HighlightModule from './highlight';

type Highlighter = typeof HighlightModule;

/** Languages that name plain output: nothing to colour, and no reason to fetch the highlighter. */
const PLAIN = new Set(['text', 'txt', 'plain', 'plaintext', 'output', 'log']);

let loaded: Highlighter | null = null;
let loading: Promise<Highlighter> | null = null;

function loadHighlighter(): Promise<Highlighter> {
  loading ??= import('./highlight').then((m) => (loaded = m));
  return loading;
}

export function CodeBlock({ code, language: named }: { code: string; language: string }): JSX.Element {
  const language = PLAIN.has(named) ? '' : named;
  const [hl, setHl] = useState<Highlighter | null>(loaded);
  useEffect(() => {
    if (hl || !language) return;
    let live = true;
    void loadHighlighter().then((m) => live && setHl(m));
    return () => {
      live = false;
    };
  }, [hl, language]);
  const highlighted = useMemo(() => (hl ? hl.highlight(code, language) : null), [hl, code, language]);
  return (
    <pre data-language={named || undefined}>
      <code
        className={language ? `hljs language-${language}` : undefined}
        data-highlighted={highlighted ? '' : undefined}
      >
        {highlighted ?? code}
      </code>
    </pre>
  );
}
