/**
 * What an MCP server asks, answered by the app: a form in the chat (elicitation), a reply from
 * the conversation's model after the person allows it (sampling), the folders the person granted
 * (roots), and its prompts changing (list_changed), end to end through the real back end. The
 * server is ours (test/fixtures/mcp-asks, the official SDK's McpServer), installed into the data
 * directory and run in its sandbox; the person's answers are the contract's commands a card
 * sends; the model is the scripted model server (no language model can run here).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackendEvent } from '../../src/main/service/backend';
import type { ChatMessage } from '../../src/shared/contract';
import { finalMessage } from '../helpers/app';
import { tmpDir } from '../helpers/plugins';
import { lastUserText, systemText } from '../model-server/requests';
import { ModelServer } from '../model-server/server';
import { text } from '../model-server/steps';
import { assistantApp, closeAll, installFixtures, type AssistantApp } from './helpers';

let app: AssistantApp;
let model: ModelServer;

beforeAll(async () => {
  app = await assistantApp('server-asks');
  await installFixtures(app, 'mcp-asks');
  model = await ModelServer.start();
});

afterAll(() => closeAll(app, model));

const waitEvent = <T>(pick: (e: BackendEvent) => T | undefined, what: string): Promise<T> => app.waitEvent(pick, what);

/** The card of `conversationId` that shows a server's request (`tool`: elicitation or sampling). */
const askCard = (conversationId: string, tool: 'elicitation' | 'sampling', state?: 'pending'): Promise<ChatMessage> =>
  waitEvent((e) => {
    if (e.name !== 'chat.turn' || e.payload.conversationId !== conversationId) return undefined;
    // A card's change (its approval shown) is announced as a new start of it.
    const m = e.payload.type === 'start' ? e.payload.message : undefined;
    if (!m || m.tool !== tool || m.role !== 'plugin') return undefined;
    return state && m.call?.approval.state !== state ? undefined : m;
  }, `${tool} card`);

/** A tool called from the palette (no model turn); `done`: its final message once it ends. */
async function invoke(
  conversationId: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<{ done: Promise<ChatMessage> }> {
  const t = await app.backend.invoke('chat.invoke', { conversationId, plugin: 'mcp-asks', tool, args });
  if (!t.ok) throw new Error(t.message);
  return { done: finalMessage(app.backend, t.turnId) };
}

function audit(): Array<{ action: string; plugin: string; ok: boolean; detail: string }> {
  return readFileSync(path.join(app.dataDir, 'audit.log'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as never);
}

describe('elicitation: a form in the chat', () => {
  it('shows the server’s form in the conversation of a palette call, checks the answer, and the server gets it', async () => {
    const c = await app.conversation();
    const { done } = await invoke(c, 'book', { restaurant: 'Chez Marie' });
    const card = await askCard(c, 'elicitation');
    expect(card.status).toBe('streaming');
    expect(card.call?.question).toEqual(
      expect.objectContaining({
        question: 'Booking a table at Chez Marie: for whom, and how many?',
        from: 'MCP asks',
        form: expect.objectContaining({ required: ['name', 'guests'] }),
      }),
    );
    // A window that reloads meanwhile finds the form still waiting.
    const reloaded = (await app.backend.invoke('chat.get', { id: c }))?.messages.find((m) => m.id === card.id);
    expect(reloaded).toEqual(
      expect.objectContaining({
        status: 'streaming',
        call: expect.objectContaining({ question: expect.objectContaining({ form: expect.any(Object) }) }),
      }),
    );

    const callId = card.call?.id as string;
    const bad = await app.backend.invoke('chat.answer', { callId, answer: { name: 'Ada', guests: 'two' } });
    expect(bad).toEqual(
      expect.objectContaining({ ok: false, code: 'invalid_input', message: expect.stringContaining('guests') }),
    );
    expect(await app.backend.invoke('chat.answer', { callId, answer: { name: 'Ada', guests: 2 } })).toEqual({
      ok: true,
      detail: 'answered',
    });

    const result = await done;
    expect(JSON.parse(result.text)).toEqual({ action: 'accept', content: { name: 'Ada', guests: 2 } });
    const after = (await app.backend.invoke('chat.get', { id: c }))?.messages.find((m) => m.id === card.id);
    expect(after).toEqual(expect.objectContaining({ status: 'done', text: 'name: Ada\nguests: 2' }));
    expect(audit().at(-1)).toEqual(
      expect.objectContaining({
        action: 'elicitation',
        plugin: 'mcp-asks',
        ok: true,
        detail: 'the person answered the form; fields: name, guests',
      }),
    );
  });

  it('a declined form goes back as decline, and the card says so', async () => {
    const c = await app.conversation();
    const { done } = await invoke(c, 'book', { restaurant: 'X' });
    const card = await askCard(c, 'elicitation');
    expect(await app.backend.invoke('chat.answer', { callId: card.call?.id as string, refuse: 'decline' })).toEqual({
      ok: true,
      detail: 'declined',
    });
    expect(JSON.parse((await done).text)).toEqual({ action: 'decline' });
    const after = (await app.backend.invoke('chat.get', { id: c }))?.messages.find((m) => m.id === card.id);
    expect(after).toEqual(
      expect.objectContaining({ status: 'cancelled', failure: expect.objectContaining({ message: 'you declined' }) }),
    );
  });

  it('stopping the call takes the form down (cancelled), so nothing waits for an answer that cannot matter', async () => {
    const c = await app.conversation();
    const t = await app.backend.invoke('chat.invoke', {
      conversationId: c,
      plugin: 'mcp-asks',
      tool: 'book',
      args: { restaurant: 'Y' },
    });
    if (!t.ok) throw new Error(t.message);
    const card = await askCard(c, 'elicitation');
    await app.backend.invoke('chat.cancel', { turnId: t.turnId });
    const ended = await waitEvent(
      (e) =>
        e.name === 'chat.turn' && e.payload.type === 'end' && e.payload.message.id === card.id
          ? e.payload.message
          : undefined,
      'the form’s end',
    );
    expect(ended).toEqual(
      expect.objectContaining({
        status: 'cancelled',
        failure: expect.objectContaining({ message: 'the call ended before you answered' }),
      }),
    );
    expect(
      await app.backend.invoke('chat.answer', { callId: card.call?.id as string, answer: { name: 'late', guests: 1 } }),
    ).toEqual(expect.objectContaining({ ok: false, code: 'invalid_state' }));
  });
});

describe('sampling: a reply from the conversation’s model, once allowed', () => {
  it('without a connected model the server gets an error that says so', async () => {
    const c = await app.conversation();
    const r = await (await invoke(c, 'summarize', { text: 'anything' })).done;
    expect(r.status).toBe('error');
    expect(r.failure?.message).toMatch(/sampling failed: .*no model is connected: add one in Settings → Models/);
  });

  it('asks on an approval card with the server’s messages, system prompt and cap; allowed, the model writes the reply', async () => {
    await app.connect(model);
    const c = await app.conversation();
    model.script(text('Cats nap most of the day.'));
    const { done } = await invoke(c, 'summarize', { text: 'Cats sleep sixteen hours a day.' });
    const card = await askCard(c, 'sampling', 'pending');
    expect(card.call?.sampling).toEqual({
      from: 'MCP asks',
      messages: [{ role: 'user', text: 'Summarize in one line: Cats sleep sixteen hours a day.' }],
      systemPrompt: 'You write one-line summaries.',
      maxTokens: 60,
      model: 'Scripted',
    });
    // Nothing went to the model before the person allowed it.
    expect(model.modelCalls).toHaveLength(0);
    expect(await app.backend.invoke('chat.approve', { callId: card.call?.id as string, decision: 'once' })).toEqual(
      expect.objectContaining({ ok: true }),
    );
    const result = JSON.parse((await done).text) as Record<string, unknown>;
    expect(result).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Cats nap most of the day.' },
      model: 'scripted-model',
      stopReason: 'endTurn',
    });
    const sent = model.modelCalls.at(-1)!;
    expect(systemText(sent)).toBe('You write one-line summaries.');
    expect(lastUserText(sent)).toBe('Summarize in one line: Cats sleep sixteen hours a day.');
    expect(
      (sent.body as { max_tokens?: number; max_completion_tokens?: number }).max_tokens ??
        (sent.body as { max_completion_tokens?: number }).max_completion_tokens,
    ).toBe(60);
    const after = (await app.backend.invoke('chat.get', { id: c }))?.messages.find((m) => m.id === card.id);
    expect(after).toEqual(expect.objectContaining({ status: 'done', text: 'Cats nap most of the day.' }));
    const line = audit().at(-1);
    expect(line).toEqual(
      expect.objectContaining({
        action: 'sampling',
        plugin: 'mcp-asks',
        ok: true,
        detail: 'allowed by person (once); 1 message, at most 60 tokens, Scripted',
      }),
    );
    expect(JSON.stringify(line)).not.toContain('Cats');

    // The sampling card is not a call the model made: the conversation's next request has no trace of it.
    model.script(text('Noted.'));
    await app.turnEnded(c, await app.say(c, 'Thanks'));
    const next = JSON.stringify(model.modelCalls.at(-1)?.body);
    expect(next).toContain('Thanks');
    expect(next).not.toContain(card.call?.id as string);
    expect(next).not.toContain('You write one-line summaries.');
  });

  it('denied, the server gets a JSON-RPC error and the model is never asked', async () => {
    const c = await app.conversation();
    const before = model.modelCalls.length;
    const { done } = await invoke(c, 'summarize', { text: 'secret plans' });
    const card = await askCard(c, 'sampling', 'pending');
    await app.backend.invoke('chat.approve', { callId: card.call?.id as string, decision: 'deny' });
    expect((await done).failure?.message).toMatch(/sampling failed: .*the person denied the sampling request/);
    expect(model.modelCalls.length).toBe(before);
    expect(audit().at(-1)).toEqual(
      expect.objectContaining({
        action: 'sampling',
        ok: false,
        detail: expect.stringMatching(/^denied by person \(deny\)/),
      }),
    );
  });
});

describe('roots and list_changed', () => {
  it('gives the server the folder the person granted, and none once fs.read is revoked', async () => {
    const folder = path.join(tmpDir('asks-roots'), 'workspace');
    mkdirSync(folder, { recursive: true });
    expect(await app.backend.invoke('plugins.configure', { id: 'mcp-asks', values: { workspace: folder } })).toEqual(
      expect.objectContaining({ ok: true }),
    );
    const roots = async (): Promise<unknown> =>
      JSON.parse((await (await invoke(await app.conversation(), 'roots', {})).done).text);
    expect(await roots()).toEqual({ roots: [{ uri: pathToFileURL(folder).href, name: 'workspace' }] });
    expect(await app.backend.invoke('plugins.revoke', { id: 'mcp-asks', capabilities: ['fs.read'] })).toEqual(
      expect.objectContaining({ ok: true }),
    );
    expect(await roots()).toEqual({ roots: [] });
  });

  it('a prompt the server adds reaches the app as plugins.changed, and the prompt list has it', async () => {
    const c = await app.conversation();
    await (
      await invoke(c, 'add_prompt', {})
    ).done;
    await waitEvent(
      (e) =>
        e.name === 'plugins.changed' && e.payload.id === 'mcp-asks' && e.payload.reason === 'prompts'
          ? true
          : undefined,
      'prompts change',
    );
    const prompts = await app.backend.invoke('plugins.prompts', { id: 'mcp-asks' });
    expect(prompts.ok && prompts.prompts.map((p) => p.name)).toEqual(['greet', 'extra_1']);
  });
});
