/**
 * Syntax highlighting for code blocks, loaded only when the first one is shown (CodeBlock.tsx
 * imports this module with import()). highlight.js's core with the languages plugins and models
 * write most, through lowlight, which gives a syntax tree instead of an HTML string: the tree
 * becomes React elements (hast-util-to-jsx-runtime, which react-markdown uses too), so no HTML
 * is ever set by hand. Why this and not shiki: shiki's TextMate grammars and their engine are
 * several hundred KiB for a few languages; this is about 60 KiB minified for the set below.
 */
import type { Root } from 'hast';
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { createLowlight } from 'lowlight';
import type { ReactNode } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';

const lowlight = createLowlight({
  bash,
  css,
  diff,
  go,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
});
// The names people put after ``` besides the languages' own (highlight.js knows js, ts, py, sh…).
lowlight.registerAlias({ bash: ['zsh', 'console-bash'], xml: ['html', 'svg'], json: ['jsonc', 'json5'] });

/** Above this a block is shown plain: highlighting is synchronous and grows with the text. */
export const HIGHLIGHT_MAX_CHARS = 100_000;

/** `code` highlighted as `language`, as React elements; null for a language not registered here. */
export function highlight(code: string, language: string): ReactNode | null {
  if (!language || code.length > HIGHLIGHT_MAX_CHARS || !lowlight.registered(language)) return null;
  const tree: Root = lowlight.highlight(language, code);
  return toJsxRuntime(tree, { Fragment, jsx, jsxs });
}
