/**
 * A model's tool calls beyond the single ask: tool policies and their defaults, parallel calls
 * running at once while their prompts come one at a time, "Always allow", edited arguments, the
 * conversation given to G-Assist plugins, passthrough kept away from the model, and the audit
 * trail. Real plugins (the bundled hello plugin, fixtures installed into the data directory), the
 * scripted model server as the model (no model can run here).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/shared/contract';
import { fixturePlugin } from '../helpers/plugins';
import { ModelServer } from '../model-server/server';
import { toolResults } from '../model-server/requests';
import { text, toolCalls } from '../model-server/steps';
import { assistantApp, closeAll, installFixtures, type AssistantApp } from './helpers';

let app: AssistantApp;
let model: ModelServer;

beforeAll(async () => {
  app = await assistantApp('assistant-calls');
  await installFixtures(app, 'gassist-python', 'mcp-dynamic');
  // These tests are about calls, not about choosing among many tools: offer them all.
  await app.backend.invoke('assistant.configure', { maxTools: 512, maxToolTokens: 200_000 });
  model = await ModelServer.start();
  await app.connect(model);
});

afterAll(() => closeAll(app, model));

const card = (messages: readonly ChatMessage[], tool: string): ChatMessage | undefined =>
  messages.find((m) => m.role === 'plugin' && m.tool === tool);

function audit(): Array<{ action: string; plugin: string; tool?: string; ok: boolean; detail: string }> {
  return readFileSync(path.join(app.dataDir, 'audit.log'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as never);
}

describe('tool policies', () => {
  it('defaults: a bundled plugin’s read-only tools run unasked; an installed one’s claim to only read is a hint, and it asks', async () => {
    const policy = (plugin: string, tool: string) => app.registry.decisions.toolPolicy(plugin, tool);
    expect(policy('hello', 'count')).toEqual({ policy: 'allow', defaultPolicy: 'allow' });
    expect(policy('hello', 'start_conversation')).toEqual({ policy: 'ask', defaultPolicy: 'ask' });
    expect(policy('mcp-dynamic', 'list_added').defaultPolicy).toBe('ask');
    // MCP annotations arrive with the tool list, once the server has run: they change nothing.
    await app.registry.call('mcp-dynamic', 'list_added', {}).done;
    expect(policy('mcp-dynamic', 'list_added')).toEqual({ policy: 'ask', defaultPolicy: 'ask' });
    expect(policy('mcp-dynamic', 'remove_tool').policy).toBe('ask');
    // The plugin panel's Tools tab shows the same, and the hint as the plugin gave it.
    const detail = await app.backend.invoke('plugins.detail', { id: 'mcp-dynamic' });
    expect(detail?.tools.find((t) => t.name === 'list_added')).toEqual(
      expect.objectContaining({
        policy: 'ask',
        defaultPolicy: 'ask',
        annotations: expect.objectContaining({ readOnlyHint: true }),
      }),
    );
  });

  it('a tool allowed by its policy runs without a prompt, and the audit log says the policy decided', async () => {
    // The person allowed it (Tools tab): the policy is theirs.
    expect((await app.registry.decisions.setToolPolicy('mcp-dynamic', 'list_added', 'allow')).ok).toBe(true);
    model.script(toolCalls({ name: 'mcp_dynamic__list_added', arguments: {} }), text('Nothing added.'));
    const c = await app.conversation();
    const conv = await app.turnEnded(c, await app.say(c, 'What was added?'));
    expect(card(conv.messages, 'list_added')).toEqual(
      expect.objectContaining({
        status: 'done',
        text: 'none yet',
        call: expect.objectContaining({ approval: { state: 'allowed', by: 'policy' } }),
      }),
    );
    expect(audit().at(-1)).toEqual(
      expect.objectContaining({
        action: 'model-call',
        plugin: 'mcp-dynamic',
        tool: 'list_added',
        ok: true,
        detail: 'allowed by policy',
      }),
    );
  });

  it('a tool whose policy is deny never runs; the model is told it may not call it', async () => {
    expect(
      await app.backend.invoke('plugins.setToolPolicy', { id: 'hello', tool: 'say_hello', policy: 'deny' }),
    ).toEqual(expect.objectContaining({ ok: true }));
    model.script(toolCalls({ name: 'hello__say_hello', arguments: { name: 'Ada' } }), text('Not allowed.'));
    const c = await app.conversation();
    const conv = await app.turnEnded(c, await app.say(c, 'Greet Ada'));
    expect(card(conv.messages, 'say_hello')).toEqual(
      expect.objectContaining({
        status: 'cancelled',
        text: '',
        call: expect.objectContaining({ approval: { state: 'denied', by: 'policy' } }),
      }),
    );
    expect(toolResults(model.modelCalls.at(-1)!)[0]?.text).toMatch(/may not be called by a model here/);
    expect(audit().at(-1)).toEqual(
      expect.objectContaining({ tool: 'say_hello', ok: false, detail: 'denied by policy; arguments: name' }),
    );
    await app.backend.invoke('plugins.setToolPolicy', { id: 'hello', tool: 'say_hello', policy: null });
    expect(app.registry.decisions.toolPolicy('hello', 'say_hello').policy).toBe('allow');
  });

  it('"Always allow" sets the tool’s policy, so the next call in any conversation is not asked about', async () => {
    model.script(toolCalls({ name: 'mcp_dynamic__add_tool', arguments: { name: 'alpha' } }), text('Added.'));
    const c = await app.conversation();
    const turn = await app.say(c, 'Add alpha');
    const asked = await app.prompt(c);
    await app.backend.invoke('chat.approve', { callId: asked.call!.id, decision: 'always' });
    await app.turnEnded(c, turn);
    expect(app.registry.decisions.toolPolicy('mcp-dynamic', 'add_tool').policy).toBe('allow');
    expect(
      audit()
        .filter((e) => e.action === 'tool-policy')
        .at(-1),
    ).toEqual(
      expect.objectContaining({ plugin: 'mcp-dynamic', tool: 'add_tool', detail: 'mcp-dynamic:add_tool set to allow' }),
    );
    model.script(toolCalls({ name: 'mcp_dynamic__add_tool', arguments: { name: 'beta' } }), text('Added too.'));
    const other = await app.conversation();
    const conv = await app.turnEnded(other, await app.say(other, 'Add beta'));
    expect(card(conv.messages, 'add_tool')?.call?.approval).toEqual({ state: 'allowed', by: 'policy' });
    await app.backend.invoke('plugins.setToolPolicy', { id: 'mcp-dynamic', tool: 'add_tool', policy: null });
  });

  it('runs the arguments the person edited on the card, and refuses edits that break the schema', async () => {
    model.script(toolCalls({ name: 'mcp_dynamic__add_tool', arguments: { name: 'typo' } }), text('Done.'));
    const c = await app.conversation();
    const turn = await app.say(c, 'Add a tool');
    const asked = await app.prompt(c);
    const bad = await app.backend.invoke('chat.approve', {
      callId: asked.call!.id,
      decision: 'once',
      args: { name: 'Not A Name!' },
    });
    expect(bad).toEqual(
      expect.objectContaining({ ok: false, code: 'invalid_arguments', message: expect.stringMatching(/name/) }),
    );
    expect(
      await app.backend.invoke('chat.approve', { callId: asked.call!.id, decision: 'once', args: { name: 'fixed' } }),
    ).toEqual(expect.objectContaining({ ok: true }));
    const conv = await app.turnEnded(c, turn);
    expect(card(conv.messages, 'add_tool')).toEqual(
      expect.objectContaining({ args: { name: 'fixed' }, text: 'added fixed' }),
    );
    // The model is told what actually ran.
    const sent = JSON.stringify(model.modelCalls.at(-1)!.body);
    expect(sent).toContain('added fixed');
  });
});

describe('a name the model gets wrong', () => {
  it('a mistyped tool is told the closest offered names, and its card says so; nothing runs', async () => {
    model.script(toolCalls({ name: 'hello__say_helo', arguments: { name: 'Ada' } }), text('Let me fix that.'));
    const c = await app.conversation();
    const conv = await app.turnEnded(c, await app.say(c, 'Greet Ada'));
    expect(card(conv.messages, 'say_helo')).toEqual(
      expect.objectContaining({
        status: 'error',
        pluginId: 'hello',
        failure: expect.objectContaining({
          code: 'unknown_tool',
          message: expect.stringMatching(
            /^there is no tool named hello__say_helo; the closest offered: hello__say_hello/,
          ),
        }),
      }),
    );
    expect(toolResults(model.modelCalls.at(-1)!)[0]?.text).toMatch(
      /^unknown_tool: there is no tool named hello__say_helo; the closest offered: hello__say_hello/,
    );
  });

  it('a tool the person switched off is named so, and its card offers to switch it on', async () => {
    expect((await app.backend.invoke('plugins.setExposed', { id: 'hello', tool: 'count', exposed: false })).ok).toBe(
      true,
    );
    model.script(toolCalls({ name: 'hello__count', arguments: { n: 2 } }), text('It is off.'));
    const c = await app.conversation();
    const conv = await app.turnEnded(c, await app.say(c, 'Count to 2'));
    expect(card(conv.messages, 'count')).toEqual(
      expect.objectContaining({
        status: 'error',
        pluginId: 'hello',
        text: '',
        failure: expect.objectContaining({
          code: 'tool_not_exposed',
          message: expect.stringContaining('hello:count is switched off in Plugboard'),
        }),
      }),
    );
    await app.backend.invoke('plugins.setExposed', { id: 'hello', tool: 'count', exposed: true });
  });
});

describe('calls the model makes at once', () => {
  it('run at once, while their prompts come one at a time', async () => {
    await app.registry.decisions.setToolPolicy('hello', 'count', 'ask');
    model.script(
      toolCalls(
        { name: 'hello__count', arguments: { to: 3, delay_ms: 0 } },
        { name: 'gassist_python__count_slowly', arguments: {} },
        { name: 'mcp_dynamic__list_added', arguments: {} },
      ),
      text('All three ran.'),
    );
    const c = await app.conversation();
    const turn = await app.say(c, 'Do three things');
    const first = await app.prompt(c);
    expect(first.tool).toBe('count');
    // The second asked-about call waits its turn (its card says so) while the first is asked.
    const waiting = async () =>
      card((await app.backend.invoke('chat.get', { id: c }))!.messages, 'count_slowly')?.call?.approval.state;
    await expect.poll(waiting).toBe('queued');
    await app.backend.invoke('chat.approve', { callId: first.call!.id, decision: 'once' });
    const second = await app.prompt(c);
    expect(second.tool).toBe('count_slowly');
    await app.backend.invoke('chat.approve', { callId: second.call!.id, decision: 'once' });
    const conv = await app.turnEnded(c, turn);
    expect(conv.messages.filter((m) => m.role === 'plugin').map((m) => [m.tool, m.status])).toEqual([
      ['count', 'done'],
      ['count_slowly', 'done'],
      ['list_added', 'done'],
    ]);
    // All three results went back in one request, in the model's order.
    expect(toolResults(model.modelCalls.at(-1)!).map((r) => r.id)).toEqual(
      conv.messages.filter((m) => m.call).map((m) => m.call!.id),
    );
    await app.registry.decisions.setToolPolicy('hello', 'count', null);
  });

  it('overlap in time when the model asks for them together', async () => {
    await app.registry.decisions.setToolPolicy('gassist-python', 'count_slowly', 'allow');
    // hello counts for minutes; the Python plugin's count takes 0.6 s. Run one after the other,
    // the short one would end before the long one streamed, or the long one would still be
    // waiting to start: run together, the long one streams first and is still running when the
    // short one ends. No timing is assumed: the test waits for the short card's end.
    model.script(
      toolCalls(
        { name: 'hello__count', arguments: { to: 100, delay_ms: 2000 } },
        { name: 'gassist_python__count_slowly', arguments: { n: 3 } },
      ),
    );
    const c = await app.conversation();
    const turn = await app.say(c, 'Count twice');
    const cardOf =
      (plugin: string) =>
      (e: (typeof app.events)[number]): string | undefined =>
        e.name === 'chat.turn' &&
        e.payload.type === 'start' &&
        e.payload.turnId === turn &&
        e.payload.message.pluginId === plugin
          ? e.payload.message.id
          : undefined;
    await expect
      .poll(
        () =>
          app.events.some(
            (e) =>
              e.name === 'chat.turn' &&
              e.payload.type === 'end' &&
              e.payload.turnId === turn &&
              e.payload.message.pluginId === 'gassist-python',
          ),
        { timeout: 20_000 },
      )
      .toBe(true);
    const long = app.events.map(cardOf('hello')).find(Boolean);
    const short = app.events.map(cardOf('gassist-python')).find(Boolean);
    const seen = app.events.flatMap((e) => {
      if (e.name !== 'chat.turn' || e.payload.turnId !== turn) return [];
      if (e.payload.type === 'stream' && e.payload.messageId === long) return ['long streamed'];
      if (e.payload.type === 'end' && e.payload.message.id === short) return ['short ended'];
      if (e.payload.type === 'end' && e.payload.message.id === long) return ['long ended'];
      return [];
    });
    expect(seen.indexOf('long streamed')).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf('long streamed')).toBeLessThan(seen.indexOf('short ended'));
    expect(seen).not.toContain('long ended');
    await app.backend.invoke('chat.cancel', { turnId: turn });
    await app.turnEnded(c, turn);
  });
});

describe('what plugins and the model get', () => {
  it('a long output reaches the model as its head and tail with a note of what was cut; the card keeps it all', async () => {
    const dir = fixturePlugin({
      script: 'gassist',
      id: 'long-output',
      manifest: {
        functions: [
          {
            name: 'count',
            description: 'Count from 1 to n',
            parameters: { type: 'object', properties: { n: { type: 'integer' } } },
          },
        ],
        auto_approved_tools: ['count'],
      },
    });
    expect((await app.registry.installer.install(dir)).ok).toBe(true);
    // An installed plugin's auto_approved_tools is its own claim, not a grant: the person allows it.
    expect(app.registry.decisions.toolPolicy('long-output', 'count').policy).toBe('ask');
    expect((await app.registry.decisions.setToolPolicy('long-output', 'count', 'allow')).ok).toBe(true);
    model.script(toolCalls({ name: 'long_output__count', arguments: { n: 20_000 } }), text('That was long.'));
    const c = await app.conversation();
    const conv = await app.turnEnded(c, await app.say(c, 'Count to 20000'));
    const full = card(conv.messages, 'count')?.text ?? '';
    expect(full.startsWith('1\n2\n3\n')).toBe(true);
    expect(full).toContain('\n19999\n20000\n');
    const sent = toolResults(model.modelCalls.at(-1)!)[0]?.text ?? '';
    expect(sent.length).toBeLessThan(16_200);
    expect(sent.startsWith('1\n2\n3\n')).toBe(true);
    expect(sent).toMatch(/20000\n(counted to 20000)?$/);
    const cut = Number(/\[(\d+) characters cut from the tool's output\]/.exec(sent)?.[1]);
    expect(cut).toBe(card(conv.messages, 'count')?.call?.cutForModel);
    expect(cut).toBeGreaterThan(full.length - 16_000 - 100);
  });

  it('a G-Assist plugin with conversation.read receives the conversation as context', async () => {
    await app.registry.decisions.setToolPolicy('gassist-python', 'echo_context', 'allow');
    model.script(text('First answer.'));
    const c = await app.conversation();
    await app.turnEnded(c, await app.say(c, 'Remember the blue door'));
    model.script(toolCalls({ name: 'gassist_python__echo_context', arguments: {} }), text('Seen.'));
    const conv = await app.turnEnded(c, await app.say(c, 'What did I say?'));
    const got = card(conv.messages, 'echo_context')?.result as { context: Array<{ role: string; content: string }> };
    expect(got.context.slice(0, 3)).toEqual([
      { role: 'user', content: 'Remember the blue door' },
      { role: 'assistant', content: 'First answer.' },
      { role: 'user', content: 'What did I say?' },
    ]);
  });

  it('a tool result that keeps the session moves the conversation into passthrough; what is typed there never reaches the model', async () => {
    await app.registry.decisions.setToolPolicy('gassist-python', 'start_conversation', 'allow');
    model.script(
      toolCalls({ name: 'gassist_python__start_conversation', arguments: {} }),
      text('You are talking to the plugin now.'),
    );
    const c = await app.conversation();
    await app.turnEnded(c, await app.say(c, 'Let me talk to the plugin'));
    expect((await app.backend.invoke('chat.get', { id: c }))?.passthrough).toEqual(
      expect.objectContaining({ pluginId: 'gassist-python' }),
    );
    const secret = 'my-password-hunter2';
    const r = await app.backend.invoke('chat.send', { conversationId: c, text: secret });
    expect(r.ok).toBe(true);
    await app.turnEnded(c, (r as { turnId: string }).turnId);
    await app.backend
      .invoke('chat.send', { conversationId: c, text: 'exit' })
      .then((x) => app.turnEnded(c, (x as { turnId: string }).turnId));
    expect((await app.backend.invoke('chat.get', { id: c }))?.passthrough).toBeNull();
    model.script(text('Back with you.'));
    await app.turnEnded(c, await app.say(c, 'And now?'));
    const sent = model.modelCalls.at(-1)!.rawBody;
    expect(sent).toContain('And now?');
    expect(sent).not.toContain(secret);
  });
});
