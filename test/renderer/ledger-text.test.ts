// The words of the assistant's second part in the renderer: tokens (exact or estimated), the
// enrichment note under a message, and Settings → Assistant's checks before it saves.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ASSISTANT_SETTINGS, type Enrichment } from '../../src/shared/assistant';
import type { ChatMessage } from '../../src/shared/contract';
import { tokensOf } from '../../src/shared/token-totals';
import { requestSummary, totalsText, usageText } from '../../src/renderer/src/features/chat/answer-text';
import { enrichmentSummary } from '../../src/renderer/src/features/chat/enrichment-text';
import { checkAssistantDraft, draftOf } from '../../src/renderer/src/features/settings/assistant-form';

const answer = (id: string, usage?: ChatMessage['usage']): ChatMessage => ({
  id,
  role: 'assistant',
  createdAt: 1,
  text: 'ok',
  ...(usage ? { usage } : {}),
});

describe('tokens', () => {
  it('marks an estimated count with ≈ on each number', () => {
    expect(usageText({ inputTokens: 2573, outputTokens: 5, estimated: true })).toBe('≈2,573 in · ≈5 out');
    expect(usageText({ inputTokens: 2573, outputTokens: 5 })).toBe('2,573 in · 5 out');
  });

  it('sums a conversation’s answers, skipping messages without usage, and is an estimate if any part was', () => {
    const exact = tokensOf([
      answer('a', { inputTokens: 1000, outputTokens: 20 }),
      undefined,
      answer('b'),
      answer('c', { inputTokens: null, outputTokens: 4 }),
    ]);
    expect(exact).toEqual({ inputTokens: 1000, outputTokens: 24, estimated: false });
    expect(totalsText(exact)).toBe('1,024 tokens (1,000 in · 24 out)');
    const mixed = tokensOf([
      answer('a', { inputTokens: 10, outputTokens: 1 }),
      answer('b', { inputTokens: 5, outputTokens: 1, estimated: true }),
    ]);
    expect(totalsText(mixed)).toBe('≈17 tokens (15 in · 2 out)');
  });
});

describe('the enrichment note', () => {
  const names: Record<string, string> = { files: 'Files', todo: 'Todo', clock: 'Clock' };
  const nameOf = (id: string): string => names[id] ?? id;
  const added = (plugin: string): Enrichment => ({ plugin, ok: true, note: 'added', added: 'x' });
  const skipped = (plugin: string): Enrichment => ({ plugin, ok: false, note: 'skipped (took longer than 3 s)' });

  it('names who added, in order, and counts who was skipped', () => {
    expect(enrichmentSummary([added('files')], nameOf)).toBe('Files added to what the model read');
    expect(enrichmentSummary([added('files'), added('todo'), added('clock')], nameOf)).toBe(
      'Files, Todo and Clock added to what the model read',
    );
    expect(enrichmentSummary([added('files'), skipped('todo')], nameOf)).toBe(
      'Files added to what the model read; 1 enricher skipped',
    );
    expect(enrichmentSummary([skipped('todo'), skipped('clock')], nameOf)).toBe('2 enrichers skipped');
  });

  it('says "changed" when an enricher rewrote the message rather than adding to it', () => {
    expect(
      enrichmentSummary([{ plugin: 'files', ok: true, note: 'rewrote the message', replaced: 'new text' }], nameOf),
    ).toBe('Files changed what the model read');
  });
});

describe('Settings → Assistant', () => {
  const saved = DEFAULT_ASSISTANT_SETTINGS;

  it('sends only what changed, read as whole numbers (thousands separators allowed)', () => {
    const d = { ...draftOf(saved), maxSteps: ' 12 ', maxToolTokens: '20,000' };
    expect(checkAssistantDraft(d, saved)).toEqual({ ok: true, change: { maxSteps: 12, maxToolTokens: 20_000 } });
    expect(checkAssistantDraft(draftOf(saved), saved)).toEqual({ ok: true, change: {} });
  });

  it('says, per field, what is out of range or not a whole number, and sends nothing', () => {
    const r = checkAssistantDraft({ ...draftOf(saved), maxSteps: '0', maxTools: '2.5', instructionsTokens: '' }, saved);
    expect(r).toEqual({
      ok: false,
      errors: {
        maxSteps: 'A whole number from 1 to 50.',
        maxTools: 'A whole number from 4 to 512.',
        instructionsTokens: 'A whole number from 0 to 50,000.',
      },
    });
    // 0 is a valid budget for the instructions: it leaves them out.
    expect(checkAssistantDraft({ ...draftOf(saved), instructionsTokens: '0' }, saved)).toEqual({
      ok: true,
      change: { instructionsTokens: 0 },
    });
  });
});

describe('a request’s details', () => {
  const info = (tools: string[], toolsTotal: number) => ({
    tools,
    toolsTotal,
    instructionsFrom: [],
    instructionsLeftOut: [],
    estimatedTokens: 100,
  });

  it('counts the plugins’ tools offered, and out of how many when the budget chose among them', () => {
    expect(requestSummary(info(['a__x', 'b__y', 'ask_user'], 2))).toBe('2 tools offered');
    expect(requestSummary(info(['a__x', 'ask_user', 'find_tools'], 40))).toBe('1 of 40 tools offered');
    expect(requestSummary(info(['ask_user'], 0))).toBe('0 tools offered');
    expect(requestSummary(info(['a__x', 'ask_user'], 1))).toBe('1 tool offered');
  });
});
