import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/shared/contract';
import {
  anyStreaming,
  hasRunningTurn,
  heldIn,
  NO_STREAMING,
  runningTurns,
  withMessage,
  withoutConversation,
  withSnapshot,
  type StreamingIndex,
} from '../../src/renderer/src/stores/chat/running';

const user = (id: string): ChatMessage => ({ id, role: 'user', createdAt: 1, text: 'hi' });
const reply = (id: string, turnId: string, status: ChatMessage['status']): ChatMessage => ({
  id,
  role: 'plugin',
  createdAt: 2,
  text: '',
  pluginId: 'hello',
  tool: 'count',
  turnId,
  status,
});

/** Folds messages as events bring them, each with its conversation. */
function fold(events: [conversationId: string, message: ChatMessage][], from: StreamingIndex = NO_STREAMING): StreamingIndex {
  return events.reduce((index, [c, m]) => withMessage(index, c, m), from);
}

describe('running turns, from the messages events bring', () => {
  it('a turn runs from its start until its message ends', () => {
    const started = fold([['c1', reply('m1', 't1', 'streaming')]]);
    expect(runningTurns(started, 'c1')).toEqual(['t1']);
    expect(hasRunningTurn(started, 'c1')).toBe(true);
    expect(anyStreaming(started)).toBe(true);
    const ended = fold([['c1', reply('m1', 't1', 'done')]], started);
    expect(runningTurns(ended, 'c1')).toEqual([]);
    expect(hasRunningTurn(ended, 'c1')).toBe(false);
    expect(anyStreaming(ended)).toBe(false);
  });

  it('a turn with several streaming messages runs until the end of the last one', () => {
    const both = fold([
      ['c1', reply('m1', 't1', 'streaming')],
      ['c1', reply('m2', 't1', 'streaming')],
    ]);
    expect(runningTurns(both, 'c1')).toEqual(['t1']);
    const one = fold([['c1', reply('m1', 't1', 'error')]], both);
    expect(runningTurns(one, 'c1')).toEqual(['t1']);
    const none = fold([['c1', reply('m2', 't1', 'cancelled')]], one);
    expect(runningTurns(none, 'c1')).toEqual([]);
  });

  it('keeps turns to their own conversation, loaded or not', () => {
    const index = fold([
      ['c1', reply('m1', 't1', 'streaming')],
      ['c2', reply('m2', 't2', 'streaming')],
      ['c2', reply('m3', 't3', 'streaming')],
    ]);
    expect(runningTurns(index, 'c1')).toEqual(['t1']);
    expect(runningTurns(index, 'c2')).toEqual(['t2', 't3']);
    expect(hasRunningTurn(index, 'c3')).toBe(false);
  });

  it('user messages, system notes and settled replies start nothing', () => {
    const note: ChatMessage = { id: 's1', role: 'system', createdAt: 3, text: 'No model is connected yet.' };
    const index = fold([
      ['c1', user('u1')],
      ['c1', note],
      ['c1', reply('m1', 't1', 'done')],
      // A streaming message without a turn cannot be stopped, so it is not a running turn.
      ['c1', { ...reply('m2', 't2', 'streaming'), turnId: undefined }],
    ]);
    expect(index).toBe(NO_STREAMING);
    expect(hasRunningTurn(index, 'c1')).toBe(false);
  });

  it('gives back the same index when an event changes nothing, so selectors do not re-render', () => {
    const index = fold([['c1', reply('m1', 't1', 'streaming')]]);
    expect(withMessage(index, 'c1', reply('m1', 't1', 'streaming'))).toBe(index);
    expect(withMessage(index, 'c1', user('u1'))).toBe(index);
    expect(withSnapshot(index, 'c1', [user('u1'), reply('m1', 't1', 'streaming')])).toBe(index);
    expect(heldIn(index, { m1: reply('m1', 't1', 'streaming') })).toBe(index);
    expect(withoutConversation(index, 'c2')).toBe(index);
  });
});

describe('running turns, from a snapshot', () => {
  it('takes the conversation’s streaming messages from the snapshot and leaves other conversations alone', () => {
    const before = fold([
      ['c1', reply('stale', 't0', 'streaming')],
      ['c2', reply('m9', 't9', 'streaming')],
    ]);
    const after = withSnapshot(before, 'c1', [user('u1'), reply('stale', 't0', 'done'), reply('m1', 't1', 'streaming')]);
    expect(runningTurns(after, 'c1')).toEqual(['t1']);
    expect(runningTurns(after, 'c2')).toEqual(['t9']);
    // The input is left as it was: the store swaps indexes, it does not edit one.
    expect(runningTurns(before, 'c1')).toEqual(['t0']);
  });

  it('a snapshot with nothing streaming ends what ran in that conversation (events were missed)', () => {
    const before = fold([['c1', reply('m1', 't1', 'streaming')]]);
    const after = withSnapshot(before, 'c1', [user('u1'), reply('m1', 't1', 'done')]);
    expect(hasRunningTurn(after, 'c1')).toBe(false);
    expect(anyStreaming(after)).toBe(false);
  });

  it('a turn seen only in a snapshot runs until its end event', () => {
    const opened = withSnapshot(NO_STREAMING, 'c1', [user('u1'), reply('m1', 't1', 'streaming')]);
    expect(runningTurns(opened, 'c1')).toEqual(['t1']);
    expect(hasRunningTurn(fold([['c1', reply('m1', 't1', 'done')]], opened), 'c1')).toBe(false);
  });
});

describe('running turns, when the page lets messages go', () => {
  it('keeps only what the page still holds as streaming', () => {
    const index = fold([
      ['c1', reply('kept', 't1', 'streaming')],
      ['c2', reply('gone', 't2', 'streaming')],
      ['c3', reply('settled', 't3', 'streaming')],
    ]);
    const held = heldIn(index, { kept: reply('kept', 't1', 'streaming'), settled: reply('settled', 't3', 'done') });
    expect(runningTurns(held, 'c1')).toEqual(['t1']);
    expect(hasRunningTurn(held, 'c2')).toBe(false);
    expect(hasRunningTurn(held, 'c3')).toBe(false);
  });

  it('a deleted conversation runs nothing, and the others keep running', () => {
    const index = fold([
      ['c1', reply('m1', 't1', 'streaming')],
      ['c2', reply('m2', 't2', 'streaming')],
    ]);
    const after = withoutConversation(index, 'c1');
    expect(hasRunningTurn(after, 'c1')).toBe(false);
    expect(runningTurns(after, 'c2')).toEqual(['t2']);
    expect(anyStreaming(withoutConversation(after, 'c2'))).toBe(false);
  });
});
