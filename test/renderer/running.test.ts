import { describe, expect, it } from 'vitest';
import {
  anyRunning,
  hasRunningTurn,
  NO_RUNNING,
  only,
  runningTurns,
  withFrame,
  withoutConversation,
  withSnapshot,
  type RunningIndex,
} from '../../src/renderer/src/stores/chat/running';

type Frame = [conversationId: string, turnId: string, running: boolean];

/** Folds `turn` frames as events bring them. */
function fold(frames: Frame[], from: RunningIndex = NO_RUNNING): RunningIndex {
  return frames.reduce((index, [c, t, r]) => withFrame(index, c, t, r), from);
}

describe('running turns, from the server’s turn frames', () => {
  it('a turn runs from its first frame to its last, whatever its messages do meanwhile', () => {
    // A model's turn: framed before the model wrote anything (it thinks), through its prompts.
    const started = fold([['c1', 't1', true]]);
    expect(runningTurns(started, 'c1')).toEqual(['t1']);
    expect(hasRunningTurn(started, 'c1')).toBe(true);
    expect(anyRunning(started)).toBe(true);
    const ended = fold([['c1', 't1', false]], started);
    expect(runningTurns(ended, 'c1')).toEqual([]);
    expect(hasRunningTurn(ended, 'c1')).toBe(false);
    expect(anyRunning(ended)).toBe(false);
  });

  it('keeps turns to their own conversation, loaded or not, in the order they started', () => {
    const index = fold([
      ['c1', 't1', true],
      ['c2', 't2', true],
      ['c2', 't3', true],
    ]);
    expect(runningTurns(index, 'c1')).toEqual(['t1']);
    expect(runningTurns(index, 'c2')).toEqual(['t2', 't3']);
    expect(hasRunningTurn(index, 'c3')).toBe(false);
    expect(runningTurns(fold([['c2', 't2', false]], index), 'c2')).toEqual(['t3']);
  });

  it('an end for a turn it never saw start changes nothing (the page opened mid-turn)', () => {
    expect(fold([['c1', 'unknown', false]])).toBe(NO_RUNNING);
  });

  it('gives back the same index when a frame changes nothing, so selectors do not re-render', () => {
    const index = fold([['c1', 't1', true]]);
    expect(withFrame(index, 'c1', 't1', true)).toBe(index);
    expect(withFrame(index, 'c1', 't9', false)).toBe(index);
    expect(withSnapshot(index, 'c1', ['t1'])).toBe(index);
    expect(withSnapshot(index, 'c2', [])).toBe(index);
    expect(withoutConversation(index, 'c2')).toBe(index);
    expect(only(index, () => true)).toBe(index);
  });

  it('leaves the index it was given as it was: the store swaps indexes, it does not edit one', () => {
    const before = fold([['c1', 't1', true]]);
    fold(
      [
        ['c1', 't1', false],
        ['c1', 't2', true],
      ],
      before,
    );
    expect(runningTurns(before, 'c1')).toEqual(['t1']);
  });
});

describe('running turns, from a snapshot', () => {
  it('takes the conversation’s running turns from the snapshot and leaves other conversations alone', () => {
    const before = fold([
      ['c1', 'stale', true],
      ['c2', 't9', true],
    ]);
    const after = withSnapshot(before, 'c1', ['t1']);
    expect(runningTurns(after, 'c1')).toEqual(['t1']);
    expect(runningTurns(after, 'c2')).toEqual(['t9']);
  });

  it('a snapshot with nothing running ends what ran in that conversation (its frames were missed)', () => {
    const before = fold([['c1', 't1', true]]);
    const after = withSnapshot(before, 'c1', []);
    expect(hasRunningTurn(after, 'c1')).toBe(false);
    expect(anyRunning(after)).toBe(false);
  });

  it('a turn seen only in a snapshot (a prompt waiting when the window reloaded) runs until its end frame', () => {
    const opened = withSnapshot(NO_RUNNING, 'c1', ['t1']);
    expect(runningTurns(opened, 'c1')).toEqual(['t1']);
    expect(hasRunningTurn(fold([['c1', 't1', false]], opened), 'c1')).toBe(false);
  });
});

describe('running turns, when the page lets conversations go', () => {
  it('a deleted conversation runs nothing, and the others keep running', () => {
    const index = fold([
      ['c1', 't1', true],
      ['c2', 't2', true],
    ]);
    const after = withoutConversation(index, 'c1');
    expect(hasRunningTurn(after, 'c1')).toBe(false);
    expect(runningTurns(after, 'c2')).toEqual(['t2']);
    expect(anyRunning(withoutConversation(after, 'c2'))).toBe(false);
  });

  it('after a reconnect only the open conversation’s turns are kept, until its snapshot', () => {
    const index = fold([
      ['open', 't1', true],
      ['other', 't2', true],
    ]);
    const kept = only(index, (c) => c === 'open');
    expect(runningTurns(kept, 'open')).toEqual(['t1']);
    expect(hasRunningTurn(kept, 'other')).toBe(false);
  });
});
