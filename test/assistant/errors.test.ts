/**
 * When the model fails: each failure is a message in the chat that says what happened and what to
 * do, the person's message stays, and Retry runs the turn again. The failures are the scripted
 * server's renderings of the providers' real error responses (no model can run here).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/shared/contract';
import { ModelServer } from '../model-server/server';
import { lastUserText, toolResults } from '../model-server/requests';
import { fail, text, toolCalls, type Step } from '../model-server/steps';
import { assistantApp, closeAll, type AssistantApp } from './helpers';

let app: AssistantApp;
let model: ModelServer;
const KEY = 'sk-scripted-0123456789abcdef';

beforeAll(async () => {
  app = await assistantApp('assistant-errors');
  model = await ModelServer.start();
  await app.connect(model, { apiKey: KEY });
});

afterAll(() => closeAll(app, model));

/** Sends `said`, lets the model answer with `step`, and gives the turn's last message. */
async function failedTurn(
  said: string,
  ...steps: Step[]
): Promise<{ conversation: string; answer: ChatMessage; messages: ChatMessage[] }> {
  model.script(...steps);
  const c = await app.conversation();
  const conv = await app.turnEnded(c, await app.say(c, said));
  return { conversation: c, answer: conv.messages.at(-1) as ChatMessage, messages: conv.messages };
}

describe('a model that fails', () => {
  it.each([
    ['a wrong key (401)', fail('unauthorized'), 'model_refused', /refused the API key \(401\).*Settings → Models/],
    ['no access to the model (403)', fail('forbidden'), 'model_refused', /refused access \(403/],
    ['a server error (500)', fail('server-error'), 'model_error', /failed \(500.*retry in a moment/],
    ['a context too long', fail('context-too-long'), 'context_too_long', /too long for this model.*new conversation/],
    [
      'a stream cut mid-answer',
      { type: 'reply', text: ['Half ', 'an ', 'answer'], cutAfterChunks: 2 } as Step,
      'model_error',
      /answer broke off: the connection closed before the answer was complete/,
    ],
    [
      'an error event inside the stream',
      { type: 'reply', text: ['a', 'b'], errorAfterChunks: 1 } as Step,
      'model_error',
      /failed: The server had an error/,
    ],
  ])('%s: says so, keeps the message, offers Retry', async (_what, step, code, says) => {
    const { answer, messages } = await failedTurn('Hello?', step);
    expect(messages[0]).toEqual(expect.objectContaining({ role: 'user', text: 'Hello?' }));
    expect(answer).toEqual(expect.objectContaining({ role: 'assistant', status: 'error', retry: expect.any(Object) }));
    expect(answer.failure?.code).toBe(code);
    expect(answer.failure?.message).toMatch(says);
    expect(answer.failure?.message).toMatch(/^Scripted \(http:\/\/127\.0\.0\.1:\d+\/v1\)|^the conversation/);
    expect(JSON.stringify(answer)).not.toContain(KEY);
  });

  it('keeps the part of an answer that came before the stream was cut', async () => {
    const { answer } = await failedTurn('Tell me', {
      type: 'reply',
      text: ['Half ', 'an ', 'answer'],
      cutAfterChunks: 2,
    });
    expect(answer.text).toBe('Half an ');
  });

  it('a rate limit says how long the provider asked to wait, and Retry runs the turn again', async () => {
    const { conversation, answer } = await failedTurn('What time is it?', fail('rate-limited', { retryAfter: 7 }));
    expect(answer.failure).toEqual(
      expect.objectContaining({ code: 'rate_limited', message: expect.stringMatching(/429.*wait 7 s/) }),
    );
    expect(answer.retry).toEqual({ afterMs: 7000 });
    model.script(text('Now it works.'));
    const r = await app.backend.invoke('chat.retry', { conversationId: conversation });
    expect(r).toEqual(expect.objectContaining({ ok: true }));
    const after = await app.turnEnded(conversation, (r as { turnId: string }).turnId);
    expect(after.messages.map((m) => [m.role, m.status ?? null, m.text])).toEqual([
      ['user', null, 'What time is it?'],
      ['assistant', 'error', ''],
      ['assistant', 'done', 'Now it works.'],
    ]);
    // The model got the person's message again, once, and not the failure.
    const sent = model.modelCalls.at(-1)!;
    expect(lastUserText(sent)).toBe('What time is it?');
    expect(sent.rawBody).not.toMatch(/rate-limiting/);
  });

  it('a retry does not send the model its own broken-off answer', async () => {
    const { conversation } = await failedTurn('Go on', {
      type: 'reply',
      text: ['Broken ', 'off ', 'here'],
      cutAfterChunks: 2,
    });
    model.script(text('Whole answer.'));
    const r = (await app.backend.invoke('chat.retry', { conversationId: conversation })) as {
      ok: true;
      turnId: string;
    };
    await app.turnEnded(conversation, r.turnId);
    expect(model.modelCalls.at(-1)!.rawBody).not.toContain('Broken off');
  });

  it('refuses Retry where nothing failed', async () => {
    model.script(text('Fine.'));
    const c = await app.conversation();
    await app.turnEnded(c, await app.say(c, 'Hi'));
    expect(await app.backend.invoke('chat.retry', { conversationId: c })).toEqual(
      expect.objectContaining({ ok: false, code: 'invalid_state' }),
    );
  });

  it('a server that is not there: unreachable, with what to check', async () => {
    const gone = await ModelServer.start();
    const baseURL = gone.baseURL;
    await gone.close();
    await app.backend.invoke('models.save', { name: 'Gone', provider: 'openai-compatible', baseURL, model: 'm' });
    const c = await app.conversation();
    await app.backend.invoke('chat.setModel', { conversationId: c, model: 'Gone' });
    const conv = await app.turnEnded(c, await app.say(c, 'Anyone there?'));
    expect(conv.messages.at(-1)?.failure).toEqual(
      expect.objectContaining({
        code: 'model_unreachable',
        message: expect.stringMatching(/^Gone .*could not be reached.*base URL/),
      }),
    );
  });

  it('malformed JSON in tool arguments: the card says so, nothing runs, the model is told and answers', async () => {
    await app.registry.decisions.setToolPolicy('hello', 'count', 'allow');
    const { messages } = await failedTurn(
      'Count',
      toolCalls({ name: 'hello__count', arguments: '{"to": 3,,' }),
      text('Sorry, let me fix that.'),
    );
    const card = messages.find((m) => m.role === 'plugin');
    expect(card).toEqual(
      expect.objectContaining({
        status: 'error',
        text: '',
        failure: expect.objectContaining({ code: 'invalid_arguments' }),
      }),
    );
    expect(toolResults(model.modelCalls.at(-1)!)).toEqual([
      expect.objectContaining({ id: card?.call?.id, text: expect.stringMatching(/^invalid_arguments: /) }),
    ]);
    expect(messages.at(-1)).toEqual(
      expect.objectContaining({ role: 'assistant', status: 'done', text: 'Sorry, let me fix that.' }),
    );
  });

  it('arguments that break the schema are refused the same way', async () => {
    const { messages } = await failedTurn(
      'Count',
      toolCalls({ name: 'hello__count', arguments: { to: 'many' } }),
      text('Oops.'),
    );
    expect(messages.find((m) => m.role === 'plugin')?.failure?.code).toBe('invalid_arguments');
  });

  it('a failing tool goes back to the model as an error it can read; the turn goes on', async () => {
    const { messages } = await failedTurn(
      'Use it',
      toolCalls({ name: 'hello__count', arguments: { to: 3, delay_ms: 0 } }, { name: 'hello__nope', arguments: {} }),
      text('One worked.'),
    );
    const cards = messages.filter((m) => m.role === 'plugin');
    expect(cards.map((m) => [m.tool, m.status])).toEqual([
      ['count', 'done'],
      ['nope', 'error'],
    ]);
    expect(messages.at(-1)?.text).toBe('One worked.');
  });

  it('no API key ends up on disk outside the secret store, nor in the audit log', () => {
    const dir = app.dataDir;
    const files: string[] = [];
    const walk = (d: string): void => {
      for (const f of readdirSync(d)) {
        const p = path.join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else files.push(p);
      }
    };
    walk(dir);
    const holding = files.filter((f) => readFileSync(f).includes(KEY));
    // Outside the app (no OS key store) the secret store is a file only its owner may read.
    expect(holding.map((f) => path.relative(dir, f))).toEqual(['secrets.json']);
    expect(statSync(path.join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
  });
});
