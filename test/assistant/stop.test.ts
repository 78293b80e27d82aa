/**
 * Stop, and the other ways a turn ends early: Stop while the model writes, while a prompt waits,
 * while calls run; a window that reloads while a prompt waits (the prompt is still there); the
 * app closing mid-turn (nothing approved, everything kept as it stood). The model is the scripted
 * server (no model can run here); the plugins are real processes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/shared/contract';
import { ModelServer } from '../model-server/server';
import { text, toolCalls } from '../model-server/steps';
import { assistantApp, closeAll, installFixtures, type AssistantApp } from './helpers';

let app: AssistantApp;
let model: ModelServer;

beforeAll(async () => {
  app = await assistantApp('assistant-stop');
  await installFixtures(app, 'gassist-python');
  await app.registry.decisions.setToolPolicy('gassist-python', 'count_slowly', 'allow');
  model = await ModelServer.start();
  await app.connect(model);
});

afterAll(() => closeAll(app, model));

/** Resolves once `messageId`'s text has grown (a stream event for it arrived). */
function streamed(turnId: string, pick: (messageId: string) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const hit = (e: (typeof app.events)[number]): boolean =>
      e.name === 'chat.turn' && e.payload.type === 'stream' && e.payload.turnId === turnId && pick(e.payload.messageId);
    if (app.events.some(hit)) return resolve();
    const sub = app.backend.onDidEvent((e) => {
      if (!hit(e)) return;
      sub.dispose();
      resolve();
    });
  });
}

const get = async (id: string): Promise<Conversation> => (await app.backend.invoke('chat.get', { id })) as Conversation;

describe('Stop', () => {
  it('while the model writes: the request is cancelled and what it wrote is kept', async () => {
    model.script({ type: 'reply', text: ['Once ', 'upon ', 'a time'], stallAfterChunks: 2 });
    const c = await app.conversation();
    const turn = await app.say(c, 'Tell a story');
    await streamed(turn, () => true);
    const request = model.modelCalls.at(-1)!;
    expect(await app.backend.invoke('chat.cancel', { turnId: turn })).toEqual(expect.objectContaining({ ok: true }));
    const conv = await app.turnEnded(c, turn);
    expect(conv.messages.at(-1)).toEqual(expect.objectContaining({ role: 'assistant', status: 'cancelled' }));
    expect(conv.messages.at(-1)?.text).toMatch(/^Once /);
    await expect.poll(() => request.outcome).toBe('client-closed');
    expect(conv.runningTurns).toEqual([]);
  });

  it('while a prompt waits: the prompt ends refused, nothing runs, the model is not asked again', async () => {
    model.script(toolCalls({ name: 'hello__start_conversation', arguments: {} }));
    const c = await app.conversation();
    const turn = await app.say(c, 'Talk');
    const asked = await app.prompt(c);
    const calls = model.modelCalls.length;
    await app.backend.invoke('chat.cancel', { turnId: turn });
    const conv = await app.turnEnded(c, turn);
    const card = conv.messages.find((m) => m.id === asked.id);
    expect(card).toEqual(
      expect.objectContaining({
        status: 'cancelled',
        call: expect.objectContaining({ approval: { state: 'denied', by: 'policy' } }),
      }),
    );
    expect(card?.failure?.message).toMatch(/stopped before the call was decided/);
    expect(await app.backend.invoke('chat.approve', { callId: asked.call!.id, decision: 'once' })).toEqual(
      expect.objectContaining({ ok: false, code: 'invalid_state' }),
    );
    expect(model.modelCalls.length).toBe(calls);
    expect(app.registry.host.passthroughSessions()).toEqual([]);
  });

  it('while calls run: every running call is cancelled at once, their output so far kept', async () => {
    model.script(
      toolCalls(
        { name: 'hello__count', arguments: { to: 100, delay_ms: 100 } },
        { name: 'gassist_python__count_slowly', arguments: { n: 100 } },
      ),
    );
    const c = await app.conversation();
    const turn = await app.say(c, 'Count a lot');
    const cards = (): string[] =>
      app.events.flatMap((e) =>
        e.name === 'chat.turn' &&
        e.payload.turnId === turn &&
        e.payload.type === 'start' &&
        e.payload.message.role === 'plugin'
          ? [e.payload.message.id]
          : [],
      );
    await streamed(turn, (id) => cards()[0] === id);
    await streamed(turn, (id) => cards()[1] === id);
    const calls = model.modelCalls.length;
    await app.backend.invoke('chat.cancel', { turnId: turn });
    const conv = await app.turnEnded(c, turn);
    const ended = conv.messages.filter((m) => m.role === 'plugin');
    expect(ended.map((m) => m.status)).toEqual(['cancelled', 'cancelled']);
    for (const m of ended) expect(m.text).toMatch(/^1\n/);
    expect(ended[0]?.text).not.toMatch(/\n100\n/);
    expect(model.modelCalls.length).toBe(calls);
    // The plugins are free again: the next call runs.
    expect((await app.registry.call('hello', 'say_hello', { name: 'after' }).done).ok).toBe(true);
  });

  it('deleting the conversation stops its turn', async () => {
    model.script({ type: 'reply', text: ['a', 'b'], stallAfterChunks: 1 });
    const c = await app.conversation();
    const turn = await app.say(c, 'Go');
    await streamed(turn, () => true);
    await app.backend.invoke('chat.delete', { id: c });
    await app.turnEnded(c, turn).catch(() => undefined);
    await expect.poll(() => model.modelCalls.at(-1)?.outcome).toBe('client-closed');
  });
});

describe('a prompt that waits', () => {
  it('is still there for a window that reloads (the conversation as fetched again shows it)', async () => {
    model.script(toolCalls({ name: 'hello__start_conversation', arguments: { topic: 'x' } }), text('ok'));
    const c = await app.conversation();
    const turn = await app.say(c, 'Talk');
    const asked = await app.prompt(c);
    const fetched = await get(c);
    expect(fetched.messages.find((m) => m.id === asked.id)?.call?.approval).toEqual({ state: 'pending' });
    expect(fetched.runningTurns).toEqual([turn]);
    await app.backend.invoke('chat.approve', { callId: asked.call!.id, decision: 'deny' });
    await app.turnEnded(c, turn);
  });

  it('closing the app while the model has not answered yet: the turn winds down without writing to the closed store', async () => {
    model.script({ type: 'hang' });
    const c = await app.conversation();
    const calls = model.modelCalls.length;
    await app.say(c, 'Are you there?');
    await model.waitForModelCalls(calls + 1);
    const assistant = (await app.backend.conversations()).chat.assistant;
    await app.close();
    // The turn ends after the store closed (its answer would be its first write): it must write
    // nothing, and throw nothing (vitest fails the run on an unhandled rejection).
    await expect.poll(() => assistant.isBusy(c)).toBe(false);
    await model.waitFor(() => model.modelCalls.at(-1)!.outcome === 'client-closed', 'the app to hang up on the model');
    app = await assistantApp('assistant-stop', { dataDir: app.dataDir });
    const conv = await get(c);
    expect(conv.messages.map((m) => [m.role, m.status ?? ''])).toEqual([
      ['user', ''],
      ['assistant', 'cancelled'],
    ]);
    expect(conv.messages[1]?.failure?.message).toBe('Plugboard closed before the model answered');
    expect(conv.runningTurns).toEqual([]);
    // It can be retried: the question goes to the model again.
    model.script(text('Yes.'));
    const r = (await app.backend.invoke('chat.retry', { conversationId: c })) as { ok: boolean; turnId: string };
    expect(r.ok).toBe(true);
    expect((await app.turnEnded(c, r.turnId)).messages.at(-1)).toEqual(
      expect.objectContaining({ text: 'Yes.', status: 'done' }),
    );
  });

  it('is never approved by an app that closes: after a restart it reads as refused', async () => {
    model.script(toolCalls({ name: 'hello__start_conversation', arguments: {} }));
    const c = await app.conversation();
    await app.say(c, 'Talk');
    const asked = await app.prompt(c);
    await app.close();
    app = await assistantApp('assistant-stop', { dataDir: app.dataDir });
    const card = (await get(c)).messages.find((m) => m.id === asked.id);
    expect(card).toEqual(
      expect.objectContaining({
        status: 'cancelled',
        call: expect.objectContaining({ approval: { state: 'denied', by: 'policy' } }),
      }),
    );
    expect(card?.failure?.message).toMatch(/Plugboard (closed|stopped) while this ran/);
    expect((await get(c)).runningTurns).toEqual([]);
    // And nothing ran: no passthrough session was opened.
    expect(app.registry.host.passthroughSessions()).toEqual([]);
  });
});
