import type { Element } from 'hast';
import { describe, expect, it } from 'vitest';
import { codeOfPre } from '../../src/renderer/src/features/chat/code/code-of-pre';

const code = (className: string[] | undefined, text: string): Element => ({
  type: 'element',
  tagName: 'code',
  properties: className ? { className } : {},
  children: [{ type: 'text', value: text }],
});
const pre = (...children: Element['children']): Element => ({
  type: 'element',
  tagName: 'pre',
  properties: {},
  children,
});

describe('a fenced block as react-markdown hands it over', () => {
  it('gives its code without the newline before the closing fence, and its language', () => {
    expect(codeOfPre(pre(code(['language-TS'], 'let a = 1;\n')))).toEqual({ code: 'let a = 1;', language: 'ts' });
  });

  it('has no language when the fence names none', () => {
    expect(codeOfPre(pre(code(undefined, 'plain\n')))).toEqual({ code: 'plain', language: '' });
  });

  it('is not a fenced block when the pre holds anything but one code element', () => {
    expect(codeOfPre(pre({ type: 'text', value: 'x' }))).toBeNull();
    expect(codeOfPre(pre(code(undefined, 'a'), code(undefined, 'b')))).toBeNull();
    expect(codeOfPre(undefined)).toBeNull();
  });
});
