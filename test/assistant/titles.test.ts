/** Conversation titles from the first message: what it is about, distinct for repeated calls. */
import { describe, expect, it } from 'vitest';
import { clip, distinctTitle, titleOf } from '../../src/main/assistant/titles';

describe('conversation titles', () => {
  it('names a tool call by plugin, tool and what it was about, not the command text', () => {
    const t = (tool: string, args: Record<string, unknown>, pluginName = 'Hello'): string =>
      titleOf('/ignored', { pluginName, tool, args });
    expect(t('count', { to: 3, delay_ms: 1 })).toBe('Hello: count — to 3, delay ms 1');
    expect(t('say_hello', { name: 'Ada' })).toBe('Hello: say hello — Ada');
    expect(t('run', { command: 'ls -la\n  | head', timeout_ms: 5000 }, 'Terminal')).toBe(
      'Terminal: run — ls -la | head',
    );
    expect(t('write', { content: 'many lines', path: 'notes.md' }, 'Files')).toBe('Files: write — notes.md');
    expect(t('list', {}, 'Files')).toBe('Files: list');
  });

  it('takes the first line of a question, cut at a word', () => {
    expect(titleOf('\n  What is the weather   in Paris?\nAnd tomorrow?')).toBe('What is the weather in Paris?');
    const long = titleOf(
      'Please summarize the differences between the three proposals we discussed yesterday afternoon',
    );
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long).toMatch(/^Please summarize the differences between the three\S*…$/);
    expect(titleOf('   ')).toBe('Untitled');
  });

  it('numbers a title another conversation already has', () => {
    expect(distinctTitle('Hello: count — to 3', [])).toBe('Hello: count — to 3');
    expect(distinctTitle('Hello: count — to 3', ['Hello: count — to 3'])).toBe('Hello: count — to 3 (2)');
    expect(distinctTitle('Hello: count — to 3', ['Hello: count — to 3', 'Hello: count — to 3 (2)'])).toBe(
      'Hello: count — to 3 (3)',
    );
  });

  it('clips a long word without a space to cut at', () => {
    expect(clip('x'.repeat(100))).toBe(`${'x'.repeat(59)}…`);
  });
});
