/**
 * Earlier versions (issue 21, item 4): Regenerate writes the model's last answer again and Edit
 * sends a changed message again; what they replace stays in the conversation, marked `replaced`,
 * and is never sent to the model again. Through the backend's contract, with the scripted model
 * server (no model can run here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/shared/contract';
import { ModelServer } from '../model-server/server';
import { text } from '../model-server/steps';
import { assistantApp, closeAll, type AssistantApp } from './helpers';

let app: AssistantApp;
let model: ModelServer;

beforeAll(async () => {
  app = await assistantApp('assistant-versions');
  model = await ModelServer.start();
  await app.connect(model);
});

afterAll(() => closeAll(app, model));

const sentText = (): string => JSON.stringify(model.modelCalls.at(-1)?.body ?? {});
const get = async (id: string) => (await app.backend.invoke('chat.get', { id })) as Conversation;

describe('earlier versions', () => {
  it('regenerate: a new answer after the old one, which is kept, replaced, and not sent again', async () => {
    const c = await app.conversation();
    model.script(text('Blue.'));
    await app.turnEnded(c, await app.say(c, 'Pick a colour'));
    model.script(text('Green.'));
    const r = await app.backend.invoke('chat.regenerate', { conversationId: c });
    if (!r.ok) throw new Error(r.message);
    const conv = await app.turnEnded(c, r.turnId);
    expect(conv.messages.map((m) => [m.role, m.text, m.replaced ?? false])).toEqual([
      ['user', 'Pick a colour', false],
      ['assistant', 'Blue.', true],
      ['assistant', 'Green.', false],
    ]);
    expect(sentText()).toContain('Pick a colour');
    expect(sentText()).not.toContain('Blue.');
  });

  it('edit: the message and what followed are kept as an earlier version; the new text is what the model reads', async () => {
    const c = await app.conversation();
    model.script(text('Paris.'));
    await app.turnEnded(c, await app.say(c, 'Capital of Italy?'));
    model.script(text('Rome.'));
    const first = (await get(c)).messages[0];
    const r = await app.backend.invoke('chat.edit', {
      conversationId: c,
      messageId: first?.id ?? '',
      text: 'Capital of Italy, really?',
    });
    if (!r.ok || !r.turnId) throw new Error(r.ok ? 'no turn' : r.message);
    const conv = await app.turnEnded(c, r.turnId);
    expect(conv.messages.map((m) => [m.role, m.text, m.replaced ?? false])).toEqual([
      ['user', 'Capital of Italy?', true],
      ['assistant', 'Paris.', true],
      ['user', 'Capital of Italy, really?', false],
      ['assistant', 'Rome.', false],
    ]);
    expect(sentText()).toContain('Capital of Italy, really?');
    expect(sentText()).not.toContain('Paris.');
    expect(sentText()).not.toContain('"Capital of Italy?"');
  });

  it('refuses what cannot be done, saying why', async () => {
    const c = await app.conversation();
    expect(await app.backend.invoke('chat.regenerate', { conversationId: c })).toEqual(
      expect.objectContaining({
        ok: false,
        code: 'invalid_state',
        message: expect.stringMatching(/no answer of a model/),
      }),
    );
    expect(await app.backend.invoke('chat.edit', { conversationId: c, messageId: 'nope', text: 'x' })).toEqual(
      expect.objectContaining({ ok: false, code: 'invalid_input' }),
    );
  });
});
