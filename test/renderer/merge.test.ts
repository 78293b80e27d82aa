import { describe, expect, it } from 'vitest';
import type { ChatMessage, Conversation } from '../../src/shared/contract';
import { mergeSnapshot } from '../../src/renderer/src/stores/chat/merge';
import type { LocalSend } from '../../src/renderer/src/stores/chat/state';

const user = (id: string, text: string): ChatMessage => ({ id, role: 'user', createdAt: 1, text });
const plugin = (
  id: string,
  text: string,
  status: ChatMessage['status'],
  extra: Partial<ChatMessage> = {},
): ChatMessage => ({
  id,
  role: 'plugin',
  createdAt: 2,
  text,
  pluginId: 'hello',
  tool: 'count',
  turnId: `turn-${id}`,
  status,
  ...extra,
});

function snapshot(messages: ChatMessage[]): Conversation {
  return {
    id: 'c1',
    title: 'Test',
    updatedAt: 3,
    messageCount: messages.length,
    messages,
    passthrough: null,
    model: null,
    runningTurns: [],
    tokens: { inputTokens: 0, outputTokens: 0, estimated: false },
  };
}

function byId(...messages: ChatMessage[]): Record<string, ChatMessage> {
  return Object.fromEntries(messages.map((m) => [m.id, m]));
}

describe('mergeSnapshot', () => {
  it('takes the server’s order and its copy of settled messages', () => {
    const shown = byId(plugin('p1', 'old text', 'done'), user('u1', 'hi'));
    const r = mergeSnapshot(snapshot([user('u1', 'hi'), plugin('p1', 'final text', 'done')]), ['p1', 'u1'], shown, {});
    expect(r.ids).toEqual(['u1', 'p1']);
    expect(r.messages.p1?.text).toBe('final text');
    expect(r.dropped).toEqual([]);
  });

  it('keeps the text streaming here, which the events will finish, instead of showing chunks twice', () => {
    const shown = byId(plugin('p1', '1\n2\n', 'streaming'));
    const r = mergeSnapshot(snapshot([plugin('p1', '1\n2\n3\n', 'streaming')]), ['p1'], shown, {});
    expect(r.messages.p1?.text).toBe('1\n2\n');
  });

  it('after a reconnect, trusts the server’s copy of a streaming message: events were lost', () => {
    const shown = byId(plugin('p1', '1\n', 'streaming'));
    const r = mergeSnapshot(snapshot([plugin('p1', '1\n2\n3\n', 'streaming')]), ['p1'], shown, {}, true);
    expect(r.messages.p1?.text).toBe('1\n2\n3\n');
  });

  it('keeps a passthrough reply’s text on screen, though the server does not store it', () => {
    const shown = byId(plugin('p1', 'you said: tea', 'done', { passthrough: true }));
    const r = mergeSnapshot(snapshot([plugin('p1', '', 'done', { passthrough: true })]), ['p1'], shown, {});
    expect(r.messages.p1?.text).toBe('you said: tea');
    expect(r.messages.p1?.passthrough).toBe(true);
  });

  it('keeps messages still being sent or refused after the server’s, and drops sent ones the server now has', () => {
    const shown = byId(user('local-1', 'sending'), user('local-2', 'refused'), user('local-3', 'sent'));
    const local: Record<string, LocalSend> = {
      'local-1': { conversationId: 'c1', state: 'sending' },
      'local-2': { conversationId: 'c1', state: 'failed', error: 'no such tool' },
      'local-3': { conversationId: 'c1', state: 'sent' },
    };
    const r = mergeSnapshot(snapshot([user('u1', 'sent')]), ['local-1', 'local-2', 'local-3'], shown, local);
    expect(r.ids).toEqual(['u1', 'local-1', 'local-2']);
    expect(r.dropped).toEqual(['local-3']);
    expect(r.messages['local-2']?.text).toBe('refused');
  });

  it('keeps a message streaming here that the snapshot does not hold yet, unless the server is trusted', () => {
    const shown = byId(plugin('p1', '1\n', 'streaming'));
    expect(mergeSnapshot(snapshot([]), ['p1'], shown, {}).ids).toEqual(['p1']);
    const trusted = mergeSnapshot(snapshot([]), ['p1'], shown, {}, true);
    expect(trusted.ids).toEqual([]);
    expect(trusted.messages.p1).toBeUndefined();
  });
});
