/**
 * The code and language of a fenced block as react-markdown hands it over: a hast `pre` element
 * holding one `code` element whose class names the language (`language-ts`). Anything else is
 * not a fenced block.
 */
import type { Element, ElementContent } from 'hast';

export function codeOfPre(pre: Element | undefined): { code: string; language: string } | null {
  const code = pre?.children.length === 1 ? pre.children[0] : undefined;
  if (code?.type !== 'element' || code.tagName !== 'code') return null;
  const classes = Array.isArray(code.properties.className) ? code.properties.className.map(String) : [];
  const language = classes.find((c) => c.startsWith('language-'))?.slice('language-'.length) ?? '';
  // The block's text ends with the newline before the closing fence, which a <pre> would show.
  return { code: textOf(code.children).replace(/\n$/, ''), language: language.toLowerCase() };
}

function textOf(nodes: ElementContent[]): string {
  let out = '';
  for (const n of nodes) out += n.type === 'text' ? n.value : n.type === 'element' ? textOf(n.children) : '';
  return out;
}
