import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/shared/contract';
import { canRetry, isThinking, retryable } from '../../src/renderer/src/stores/chat/activity';
import { NO_RUNNING, withFrame } from '../../src/renderer/src/stores/chat/running';

const user = (id: string): ChatMessage => ({ id, role: 'user', createdAt: 1, text: 'Count to three' });
const answer = (
  id: string,
  turnId: string,
  status: ChatMessage['status'],
  extra: Partial<ChatMessage> = {},
): ChatMessage => ({ id, role: 'assistant', createdAt: 2, text: 'Hi', turnId, status, model: 'Local', ...extra });
const card = (
  id: string,
  turnId: string,
  status: ChatMessage['status'],
  state: 'queued' | 'pending' | 'allowed' | 'denied' = 'allowed',
): ChatMessage => ({
  id,
  role: 'plugin',
  createdAt: 3,
  text: '',
  pluginId: 'hello',
  tool: 'count',
  turnId,
  status,
  call: { id: `call-${id}`, name: 'hello__count', approval: { state } },
});
const note: ChatMessage = { id: 'n1', role: 'system', createdAt: 4, text: 'No model is connected yet.' };

function byId(...ms: ChatMessage[]): Record<string, ChatMessage> {
  return Object.fromEntries(ms.map((m) => [m.id, m]));
}

describe('the thinking row', () => {
  const running = withFrame(NO_RUNNING, 'c1', 't1', true);

  it('shows while the model’s turn runs and nothing of it streams (before its first token)', () => {
    expect(isThinking(running, 'c1', ['u1'], byId(user('u1')))).toBe(true);
  });

  it('goes once the answer streams, and while a prompt waits (the card says what happens)', () => {
    expect(isThinking(running, 'c1', ['u1', 'a1'], byId(user('u1'), answer('a1', 't1', 'streaming')))).toBe(false);
    expect(isThinking(running, 'c1', ['u1', 'p1'], byId(user('u1'), card('p1', 't1', 'streaming', 'pending')))).toBe(
      false,
    );
  });

  it('comes back between rounds: the calls ended and the model decides what next', () => {
    expect(isThinking(running, 'c1', ['u1', 'p1'], byId(user('u1'), card('p1', 't1', 'done')))).toBe(true);
  });

  it('never shows when no turn of the conversation runs, or for another conversation’s turn', () => {
    expect(isThinking(NO_RUNNING, 'c1', ['u1'], byId(user('u1')))).toBe(false);
    expect(isThinking(running, 'c2', ['u1'], byId(user('u1')))).toBe(false);
    // A message streaming from an older turn that is not framed as running does not count.
    expect(isThinking(running, 'c1', ['a0'], byId(answer('a0', 't0', 'streaming')))).toBe(true);
  });
});

describe('Retry', () => {
  it('is offered for a failed or stopped answer, and a model’s tool card that did not finish', () => {
    expect(canRetry(answer('a', 't', 'error'))).toBe(true);
    expect(canRetry(answer('a', 't', 'cancelled'))).toBe(true);
    expect(canRetry(answer('a', 't', 'done'))).toBe(false);
    expect(canRetry(answer('a', 't', 'streaming'))).toBe(false);
    expect(canRetry(card('p', 't', 'cancelled', 'denied'))).toBe(true);
    expect(canRetry(card('p', 't', 'done'))).toBe(false);
    // A call the person made (no `call`) is not a model's turn.
    expect(canRetry({ ...card('p', 't', 'error'), call: undefined })).toBe(false);
  });

  it('only on the conversation’s last message (system notes aside), as the server retries only that', () => {
    const failed = answer('a1', 't1', 'error');
    expect(retryable(['u1', 'a1'], byId(user('u1'), failed))).toBe('a1');
    expect(retryable(['u1', 'a1', 'n1'], byId(user('u1'), failed, note))).toBe('a1');
    expect(
      retryable(['u1', 'a1', 'u2', 'a2'], byId(user('u1'), failed, user('u2'), answer('a2', 't2', 'done'))),
    ).toBeNull();
    expect(retryable([], {})).toBeNull();
  });
});
