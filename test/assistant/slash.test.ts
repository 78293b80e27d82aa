/** How a typed `/plugin:tool key=value …` command is read: a table of what a shell user would type. */
import { describe, expect, it } from 'vitest';
import { parseSlash } from '../../src/main/assistant/slash';

const args = (text: string): unknown => {
  const p = parseSlash(text);
  if (!p.ok) throw new Error(p.message);
  return p.call.args;
};

describe('typed commands, read like a shell', () => {
  const table: Array<[string, Record<string, unknown>]> = [
    ['/files:write path=a.txt content="multi-line\nvalue"', { path: 'a.txt', content: 'multi-line\nvalue' }],
    ['/t text="two words"', { text: 'two words' }],
    ["/t text='two words'", { text: 'two words' }],
    ['/t text=\'keeps \\n and "inner" quotes\'', { text: 'keeps \\n and "inner" quotes' }],
    ['/t text="say \\"hi\\" \\\\ back"', { text: 'say "hi" \\ back' }],
    ['/t text="a\\nb"', { text: 'a\\nb' }],
    ['/t text=two\\ words', { text: 'two words' }],
    ['/t name="Ada "Lovelace', { name: 'Ada Lovelace' }],
    ['/t n=3 ok=true none=null', { n: 3, ok: true, none: null }],
    ['/t n="3" ok=\'true\'', { n: '3', ok: 'true' }],
    ['/t word=hello', { word: 'hello' }],
    ['/t empty="" other=\'\'', { empty: '', other: '' }],
    ['/t tags=["a b", "c"] opts={"x": [1, 2]}', { tags: ['a b', 'c'], opts: { x: [1, 2] } }],
    ['/t url=https://x.org/?a=b', { url: 'https://x.org/?a=b' }],
    ['/t "my key"=v', { 'my key': 'v' }],
    ['/t   spaced=1\n\tnext=2  ', { spaced: 1, next: 2 }],
  ];
  it.each(table)('%s', (text, expected) => {
    expect(args(text)).toEqual(expected);
  });

  it('reads the plugin and the tool', () => {
    expect(parseSlash('/hello:count to=3')).toEqual({
      ok: true,
      call: { plugin: 'hello', tool: 'count', args: { to: 3 } },
    });
    expect(parseSlash('count')).toEqual({ ok: true, call: { plugin: null, tool: 'count', args: {} } });
  });

  const errors: Array<[string, RegExp]> = [
    ['/t text="open', /unclosed " quote at character 8/],
    ["/t text='open", /unclosed ' quote at character 8/],
    ['/t list=[1, 2', /unbalanced brackets/],
    ['/t list=[1, nope]', /value of list is not valid JSON/],
    ['/t lonely', /"lonely" is not key=value/],
    ['/t =v', /"=v" is not key=value/],
    ['/', /type a tool name/],
    ['/:count', /is not a tool name/],
  ];
  it.each(errors)('rejects %s with a message that says what and where', (text, message) => {
    const p = parseSlash(text);
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.message).toMatch(message);
  });
});
