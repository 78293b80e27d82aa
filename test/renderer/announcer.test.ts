/** What the live region says when a result finishes (issue 12, screen readers). */
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/shared/contract';
import { failure } from '../../src/shared/failures';
import { resultAnnouncement } from '../../src/renderer/src/stores/announcer';

const msg = (over: Partial<ChatMessage>): ChatMessage => ({
  id: 'm',
  role: 'plugin',
  createdAt: 0,
  text: '',
  pluginId: 'hello',
  tool: 'count',
  ...over,
});
const name = (id: string): string => (id === 'hello' ? 'Hello' : id);

describe('result announcements', () => {
  const running = msg({ status: 'streaming', text: '1\n' });

  it('says who finished and what it said', () => {
    expect(resultAnnouncement(running, msg({ status: 'done', text: '1\n2\n\nCounted to 2.' }), name)).toBe(
      'Hello count finished. 1 2 Counted to 2.',
    );
    expect(
      resultAnnouncement(
        msg({ role: 'assistant', status: 'streaming' }),
        msg({ role: 'assistant', status: 'done', text: 'Paris.' }),
        name,
      ),
    ).toBe('The assistant finished. Paris.');
  });

  it('says a failure and a stop for what they are', () => {
    expect(
      resultAnnouncement(running, msg({ status: 'error', failure: failure('plugin_error', 'no such file') }), name),
    ).toBe('Hello count failed: no such file.');
    expect(resultAnnouncement(running, msg({ status: 'cancelled', text: '1\n' }), name)).toBe('Hello count stopped. 1');
  });

  it('stays quiet for what it did not see running, for the person’s own messages, and while streaming', () => {
    expect(resultAnnouncement(undefined, msg({ status: 'done', text: 'x' }), name)).toBeNull();
    expect(
      resultAnnouncement(msg({ role: 'user', status: 'streaming' }), msg({ role: 'user', status: 'done' }), name),
    ).toBeNull();
    expect(resultAnnouncement(running, msg({ status: 'streaming' }), name)).toBeNull();
  });

  it('keeps a long result short', () => {
    const said = resultAnnouncement(running, msg({ status: 'done', text: 'x'.repeat(1000) }), name) ?? '';
    expect(said.length).toBeLessThan(200);
  });
});

describe('result announcements, read aloud', () => {
  it('leaves out markdown marks', () => {
    const said = resultAnnouncement(
      msg({ status: 'streaming' }),
      msg({ status: 'done', tool: 'say_hello', text: 'Hello, **Ada**! Try *count* or `files:list`.' }),
      name,
    );
    expect(said).toBe('Hello say_hello finished. Hello, Ada! Try count or files:list.');
  });
});
