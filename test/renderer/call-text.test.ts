import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/shared/contract';
import type { ApprovalState } from '../../src/shared/assistant';
import {
  argsLine,
  callPhase,
  cutNote,
  decidedBy,
  formatDuration,
} from '../../src/renderer/src/features/chat/calls/call-text';
import { usageText, waitText } from '../../src/renderer/src/features/chat/answer-text';
import { policyOption } from '../../src/renderer/src/features/plugins/policy-text';

const card = (
  status: ChatMessage['status'],
  approval: ApprovalState,
  extra: Partial<ChatMessage> = {},
): ChatMessage => ({
  id: 'p1',
  role: 'plugin',
  createdAt: 1,
  text: '',
  pluginId: 'hello',
  tool: 'count',
  status,
  call: { id: 'c1', name: 'hello__count', approval },
  ...extra,
});

describe('a tool-call card', () => {
  it('names its phase from its status and approval', () => {
    expect(callPhase(card('streaming', { state: 'queued' }))).toBe('queued');
    expect(callPhase(card('streaming', { state: 'pending' }))).toBe('pending');
    expect(callPhase(card('streaming', { state: 'allowed', by: 'policy' }))).toBe('running');
    expect(callPhase(card('done', { state: 'allowed', by: 'policy' }))).toBe('done');
    expect(callPhase(card('error', { state: 'denied', by: 'policy' }))).toBe('failed');
    expect(callPhase(card('cancelled', { state: 'denied', by: 'person', decision: 'deny' }))).toBe('denied');
    // Stopped while the prompt waited: refused, but because of the Stop, which the failure says.
    expect(
      callPhase(
        card(
          'cancelled',
          { state: 'denied', by: 'policy' },
          { failure: { ok: false, code: 'cancelled', message: 'stopped before the call was decided' } },
        ),
      ),
    ).toBe('stopped');
    expect(callPhase(card('cancelled', { state: 'allowed', by: 'person', decision: 'once' }))).toBe('stopped');
  });

  it('says who allowed it, in the person’s words', () => {
    expect(decidedBy({ state: 'allowed', by: 'policy' })).toBe('allowed by policy');
    expect(decidedBy({ state: 'allowed', by: 'person', decision: 'once' })).toBe('you allowed it once');
    expect(decidedBy({ state: 'allowed', by: 'person', decision: 'conversation' })).toBe(
      'allowed for this conversation',
    );
    expect(decidedBy({ state: 'allowed', by: 'person', decision: 'always' })).toBe('you always allow it');
    expect(decidedBy({ state: 'denied', by: 'person', decision: 'deny' })).toBe('you denied it');
    expect(decidedBy({ state: 'denied', by: 'policy' })).toBe('denied by policy');
    expect(decidedBy({ state: 'allowed', by: 'flag' })).toBe('allowed by --approve all');
    expect(decidedBy({ state: 'queued' })).toBe('waits for the prompt before it');
  });

  it('shows durations and arguments at a glance', () => {
    expect(formatDuration(420)).toBe('420 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(argsLine({ to: 3, delay_ms: 0 })).toBe('to: 3, delay_ms: 0');
    expect(argsLine({ name: 'Ada' })).toBe('name: "Ada"');
    expect(argsLine({ text: 'x'.repeat(100) })).toMatch(/^text: "x+…$/);
    expect(argsLine({ a: 'y'.repeat(30), b: 'y'.repeat(30), c: 'y'.repeat(30) }).length).toBeLessThanOrEqual(80);
    expect(argsLine(undefined)).toBe('');
  });

  it('notes when the model got only the head and tail of the output', () => {
    expect(cutNote(undefined)).toBeNull();
    expect(cutNote(0)).toBeNull();
    expect(cutNote(12_345)).toMatch(/beginning and the end .*12,345 characters/);
  });
});

describe('an answer’s footnotes', () => {
  it('token usage, discreetly, and nothing when the provider gave none', () => {
    expect(usageText({ inputTokens: 1234, outputTokens: 56 })).toBe('1,234 in · 56 out');
    expect(usageText({ inputTokens: null, outputTokens: 3 })).toBe('? in · 3 out');
    expect(usageText({ inputTokens: null, outputTokens: null })).toBeNull();
    expect(usageText(undefined)).toBeNull();
  });

  it('a rate limit’s wait, counted down, then said plainly', () => {
    expect(waitText(7000, 5)).toBe('The provider asked to wait 7 s before the next request: 5 s left.');
    expect(waitText(7000, 0)).toBe('The provider asked to wait 7 s before the next request.');
  });
});

describe('the Tools tab’s policy selector', () => {
  it('marks the default', () => {
    expect(policyOption('ask', 'ask')).toBe('Ask (default)');
    expect(policyOption('allow', 'ask')).toBe('Allow');
    expect(policyOption('allow', 'allow')).toBe('Allow (default)');
  });
});
