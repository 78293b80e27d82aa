/**
 * A model's turn, end to end through the back end: the answer streams, the model sees exactly the
 * exposed tools, a call is asked about and approved (or denied), its output streams into its card,
 * the result goes back to the model, and everything is kept. The model is the scripted server
 * (no language model can run here; it speaks the real OpenAI-compatible wire format).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelServer } from '../model-server/server';
import { offeredTools, toolResults } from '../model-server/requests';
import { text, toolCalls } from '../model-server/steps';
import type { Conversation } from '../../src/shared/contract';
import { assistantApp, closeAll, type AssistantApp } from './helpers';

let app: AssistantApp;
let model: ModelServer;

beforeAll(async () => {
  app = await assistantApp('assistant-turns');
  model = await ModelServer.start();
  await app.connect(model);
  // The hello plugin auto-approves these two (its `auto_approved_tools`); the person's choice wins.
  for (const tool of ['count', 'say_hello']) await app.registry.decisions.setToolPolicy('hello', tool, 'ask');
});

afterAll(() => closeAll(app, model));

describe('a model turn', () => {
  it('streams an answer, kept with the model that gave it and what it cost', async () => {
    model.script({ type: 'reply', text: ['Hel', 'lo ', 'there.'], usage: { input: 42, output: 3 } });
    const c = await app.conversation();
    const turn = await app.say(c, 'Say hello');
    const conv = await app.turnEnded(c, turn);
    const answer = conv.messages.at(-1);
    expect(answer).toEqual(
      expect.objectContaining({
        role: 'assistant',
        text: 'Hello there.',
        status: 'done',
        model: 'Scripted',
        usage: { inputTokens: 42, outputTokens: 3 },
      }),
    );
    // It streamed: pieces arrived before the end.
    const pieces = app.events.filter(
      (e) => e.name === 'chat.turn' && e.payload.type === 'stream' && e.payload.turnId === turn,
    );
    expect(pieces.length).toBeGreaterThan(0);
    const [req] = model.modelCalls.slice(-1);
    expect(req?.body).toEqual(expect.objectContaining({ model: 'scripted-model', stream: true }));
    expect(conv.runningTurns).toEqual([]);
  });

  it('offers exactly the exposed tools, under model-safe names, with their schemas', async () => {
    model.script(text('ok'));
    await app.registry.decisions.setExposed('hello', 'count', false);
    const c = await app.conversation();
    await app.turnEnded(c, await app.say(c, 'What can you do?'));
    const offered = offeredTools(model.modelCalls.at(-1)!);
    const names = offered.map((t) => t.name);
    expect(names).toContain('hello__say_hello');
    expect(names).not.toContain('hello__count');
    expect(offered.find((t) => t.name === 'hello__say_hello')?.schema).toEqual(
      expect.objectContaining({ properties: expect.objectContaining({ name: expect.anything() }) }),
    );
    await app.registry.decisions.setExposed('hello', 'count', true);
  });

  it('asks before a call, runs it once allowed, streams it into its card and sends the result back', async () => {
    model.script(toolCalls({ name: 'hello__count', arguments: { to: 3, delay_ms: 0 } }), (req) =>
      text(`Counted: ${toolResults(req).at(-1)?.text.trim().split('\n').at(-1)}`),
    );
    const c = await app.conversation();
    const turn = await app.say(c, 'Count to three');
    const card = await app.prompt(c);
    expect(card).toEqual(
      expect.objectContaining({ role: 'plugin', pluginId: 'hello', tool: 'count', args: { to: 3, delay_ms: 0 } }),
    );
    expect(card.call).toEqual(expect.objectContaining({ name: 'hello__count', approval: { state: 'pending' } }));
    expect(await app.backend.invoke('chat.approve', { callId: card.call!.id, decision: 'once' })).toEqual(
      expect.objectContaining({ ok: true }),
    );
    const conv = await app.turnEnded(c, turn);
    const done = conv.messages.find((m) => m.id === card.id);
    expect(done?.status).toBe('done');
    expect(done?.text).toMatch(/1\n2\n3/);
    expect(done?.call).toEqual(
      expect.objectContaining({
        approval: { state: 'allowed', by: 'person', decision: 'once' },
        durationMs: expect.any(Number),
      }),
    );
    const results = toolResults(model.modelCalls.at(-1)!);
    expect(results).toEqual([
      expect.objectContaining({ id: card.call!.id, isError: false, text: expect.stringMatching(/3/) }),
    ]);
    expect(conv.messages.at(-1)).toEqual(
      expect.objectContaining({ role: 'assistant', status: 'done', text: expect.stringMatching(/^Counted:/) }),
    );
    // "Allow once" allowed that call only: the policy is still ask.
    expect(app.registry.decisions.toolPolicy('hello', 'count').policy).toBe('ask');
  });

  it('tells the model a denied call was denied, and runs nothing', async () => {
    model.script(toolCalls({ name: 'hello__say_hello', arguments: { name: 'Ada' } }), text('Understood.'));
    const c = await app.conversation();
    const turn = await app.say(c, 'Greet Ada');
    const card = await app.prompt(c);
    await app.backend.invoke('chat.approve', { callId: card.call!.id, decision: 'deny' });
    const conv = await app.turnEnded(c, turn);
    const denied = conv.messages.find((m) => m.id === card.id);
    expect(denied).toEqual(
      expect.objectContaining({
        status: 'cancelled',
        text: '',
        call: expect.objectContaining({ approval: { state: 'denied', by: 'person', decision: 'deny' } }),
      }),
    );
    expect(toolResults(model.modelCalls.at(-1)!)).toEqual([
      expect.objectContaining({ id: card.call!.id, text: 'the user denied this call' }),
    ]);
  });

  it('refuses a tool that is switched off, even when the model names it: it gets a refusal, never a call', async () => {
    await app.registry.decisions.setExposed('hello', 'say_hello', false);
    model.script(toolCalls({ name: 'hello__say_hello', arguments: { name: 'Ada' } }), text('It is off.'));
    const c = await app.conversation();
    const conv = await app.turnEnded(c, await app.say(c, 'Greet Ada'));
    const card = conv.messages.find((m) => m.role === 'plugin');
    expect(card).toEqual(
      expect.objectContaining({
        status: 'error',
        text: '',
        failure: expect.objectContaining({ code: 'tool_not_exposed' }),
      }),
    );
    // OpenAI's wire has no error flag on a tool message: the text says it.
    expect(toolResults(model.modelCalls.at(-1)!)).toEqual([
      expect.objectContaining({ id: card?.call?.id, text: expect.stringMatching(/tool_not_exposed.*say_hello/) }),
    ]);
    await app.registry.decisions.setExposed('hello', 'say_hello', true);
  });

  it('keeps every message, card and decision for the next reload', async () => {
    model.script(toolCalls({ name: 'hello__say_hello', arguments: { name: 'Kept' } }), text('Done.'));
    const c = await app.conversation();
    const turn = await app.say(c, 'Greet someone');
    const card = await app.prompt(c);
    await app.backend.invoke('chat.approve', { callId: card.call!.id, decision: 'conversation' });
    const before = await app.turnEnded(c, turn);
    await app.close();
    // A fresh back end on the same data directory, as after quitting and starting the app again.
    app = await assistantApp('assistant-turns', { dataDir: app.dataDir });
    const after = (await app.backend.invoke('chat.get', { id: c })) as Conversation;
    expect(after.messages.map((m) => [m.role, m.text, m.status])).toEqual([
      ['user', 'Greet someone', undefined],
      ['plugin', expect.stringMatching(/Kept/), 'done'],
      ['assistant', 'Done.', 'done'],
    ]);
    expect(after.messages[1]?.call).toEqual(before.messages[1]?.call);
    expect(after.messages[1]?.call?.approval).toEqual({ state: 'allowed', by: 'person', decision: 'conversation' });
    expect(after.messages[2]?.model).toBe('Scripted');
    // "Allow for this conversation" is remembered with it: the next call is not asked about.
    model.script(toolCalls({ name: 'hello__say_hello', arguments: { name: 'Again' } }), text('Again.'));
    const next = await app.turnEnded(c, await app.say(c, 'Once more'));
    expect(next.messages.at(-2)?.call?.approval).toEqual({ state: 'allowed', by: 'person', decision: 'conversation' });
  });
});
