import { describe, expect, it } from 'vitest';
import { unfence } from '../../src/renderer/src/features/chat/plain-fence';

describe('the plain view of fenced output', () => {
  it('shows what is inside the terminal’s fence, once it has closed', () => {
    expect(unfence('````text\n1\n2\n3\n````\n')).toEqual({ body: '1\n2\n3\n', fenced: true, cut: 9 });
  });

  it('drops the opening fence while the output still streams', () => {
    expect(unfence('````text\n1\n2\n')).toEqual({ body: '1\n2\n', fenced: true, cut: 9 });
  });

  it('keeps a shorter run of backticks inside: output, as markdown reads it', () => {
    expect(unfence('````text\n```js\nx\n```\n')).toEqual({ body: '```js\nx\n```\n', fenced: true, cut: 9 });
  });

  it('finds the closing fence at the end of a 2 MB output', () => {
    const lines = Array.from({ length: 300_000 }, (_, i) => `${i + 1}\n`).join('');
    const { body } = unfence(`\`\`\`\`text\n${lines}\`\`\`\`\n`);
    expect(body).toBe(lines);
  });

  it('matches tildes with tildes, and a closing fence only at the start of a line', () => {
    expect(unfence('~~~\nx\n~~~').body).toBe('x\n');
    expect(unfence('~~~\nx\n```').body).toBe('x\n```');
    expect(unfence('```\nsay ```').body).toBe('say ```');
  });

  it('leaves text that does not open with a fence as it is', () => {
    for (const text of ['plain\n```\ncode\n```\n', '``not a fence\n', ''])
      expect(unfence(text)).toEqual({ body: text, fenced: false, cut: 0 });
  });
});
