/**
 * A Mehrhof agent plugin as a conversation's model: it is listed with the models, gets the prompt,
 * the conversation as context and the offered tools in `agent.run`, asks for tools with `tool_use`
 * (the same approvals and cards as any model), gets each result back with `agent.tool_result` in
 * the middle of its call, and its failures, unavailability and Stop read like a model's. The agent
 * is a real plugin process (test/fixtures/mehrhof-tool-agent, a scripted model: none can run here).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/shared/contract';
import { fixturePlugin } from '../helpers/plugins';
import { assistantApp, closeAll, installFixtures, type AssistantApp } from './helpers';

let app: AssistantApp;
const AGENT = 'agent:tool-agent';

beforeAll(async () => {
  app = await assistantApp('assistant-agent');
  await installFixtures(app, 'mehrhof-tool-agent');
  const echo = fixturePlugin({
    script: 'gassist',
    id: 'echoer',
    env: {},
    manifest: {
      functions: [
        {
          name: 'echo',
          description: 'Say the text back',
          parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        },
      ],
    },
  });
  expect((await app.registry.installer.install(echo)).ok).toBe(true);
  await app.registry.decisions.setToolPolicy('echoer', 'echo', 'allow');
  for (const id of ['files', 'terminal', 'todo', 'hello']) await app.registry.decisions.setEnabled(id, false);
});

afterAll(() => closeAll(app));

async function agentConversation(): Promise<string> {
  const c = await app.conversation();
  expect(await app.backend.invoke('chat.setModel', { conversationId: c, model: AGENT })).toEqual(
    expect.objectContaining({ ok: true }),
  );
  return c;
}

const runs = (): Array<{
  prompt: string;
  context: { conversation: Array<{ role: string; content: string }>; system?: string };
  tools: Array<{ name: string; description: string; input_schema: unknown }>;
}> =>
  // The agent writes down each agent.run's params in its own data folder.
  readFileSync(path.join(app.registry.paths.pluginData('tool-agent'), 'runs.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('an agent plugin as the model', () => {
  it('is listed with the models, by its plugin', async () => {
    const view = await app.backend.invoke('models.list', {});
    expect(view.models).toContainEqual(
      expect.objectContaining({ name: AGENT, provider: 'agent-plugin', model: 'tool-agent' }),
    );
  });

  it('gets the prompt and the offered tools, asks for a tool mid-run, and answers with its result', async () => {
    const c = await agentConversation();
    const conv = await app.turnEnded(c, await app.say(c, 'use echoer__echo now'));
    const [user, before, card, after] = conv.messages;
    expect(user).toEqual(expect.objectContaining({ role: 'user', text: 'use echoer__echo now' }));
    expect(before).toEqual(
      expect.objectContaining({ role: 'assistant', text: 'Let me check. ', status: 'done', model: AGENT }),
    );
    expect(card).toEqual(
      expect.objectContaining({
        role: 'plugin',
        pluginId: 'echoer',
        tool: 'echo',
        args: { text: 'hello' },
        status: 'done',
      }),
    );
    expect(card?.call?.approval).toEqual({ state: 'allowed', by: 'policy' });
    expect(after).toEqual(expect.objectContaining({ role: 'assistant', text: 'The tool said: hello', status: 'done' }));
    expect(after?.usage).toEqual(expect.objectContaining({ inputTokens: 12, outputTokens: 7 }));
    const run = runs().at(-1)!;
    expect(run.prompt).toBe('use echoer__echo now');
    expect(run.tools).toContainEqual({
      name: 'echoer__echo',
      description: 'Say the text back (plugin: echoer)',
      input_schema: expect.objectContaining({ required: ['text'] }),
    });
    // An agent is a model, never a tool offered to a model.
    expect(run.tools.map((t) => t.name).filter((n) => n.includes('agent'))).toEqual([]);
    expect(run.context.conversation).toEqual([]);
  });

  it('takes the person’s decision on each call: one allowed, one denied, both told to the agent', async () => {
    await app.registry.decisions.setToolPolicy('echoer', 'echo', 'ask');
    try {
      const c = await agentConversation();
      const turn = await app.say(c, 'twice echoer__echo');
      const first = await app.prompt(c);
      await app.backend.invoke('chat.approve', { callId: first.call!.id, decision: 'once' });
      const second = await app.prompt(c);
      await app.backend.invoke('chat.approve', { callId: second.call!.id, decision: 'deny' });
      const conv = await app.turnEnded(c, turn);
      expect(conv.messages.at(-1)?.text).toBe('The tool said: hello and then: denied: the user denied this call');
    } finally {
      await app.registry.decisions.setToolPolicy('echoer', 'echo', 'allow');
    }
  });

  it('gets the conversation so far as context on the next turn', async () => {
    const c = await agentConversation();
    await app.turnEnded(c, await app.say(c, 'first question'));
    await app.turnEnded(c, await app.say(c, 'second question'));
    const run = runs().at(-1)!;
    expect(run.prompt).toBe('second question');
    expect(run.context.conversation).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'You said: first question ' },
    ]);
  });

  it('an error it reports ends the answer with its message, the person’s message kept, and Retry', async () => {
    const c = await agentConversation();
    const conv = await app.turnEnded(c, await app.say(c, 'fail please'));
    const last = conv.messages.at(-1);
    expect(last).toEqual(expect.objectContaining({ role: 'assistant', status: 'error', retry: expect.any(Object) }));
    expect(last?.failure?.message).toMatch(/tool-agent reported an error: the model is overloaded/);
    expect(conv.messages[0]?.text).toBe('fail please');
  });

  it('Stop while it writes: the answer so far is kept as stopped, and the next turn is answered', async () => {
    const c = await agentConversation();
    const turn = await app.say(c, 'hang on');
    await expect
      .poll(async () => ((await app.backend.invoke('chat.get', { id: c })) as Conversation).messages.at(-1)?.text, {
        timeout: 20_000,
      })
      .toBe('Hmm');
    expect(await app.backend.invoke('chat.cancel', { turnId: turn })).toEqual(expect.objectContaining({ ok: true }));
    const stopped = await app.turnEnded(c, turn);
    expect(stopped.messages.at(-1)).toEqual(
      expect.objectContaining({ role: 'assistant', status: 'cancelled', text: 'Hmm' }),
    );
    const next = await app.turnEnded(c, await app.say(c, 'are you back'));
    expect(next.messages.at(-1)).toEqual(expect.objectContaining({ text: 'You said: are you back ', status: 'done' }));
  });

  it('an agent that says it is not available: its reason, with Retry', async () => {
    expect((await app.registry.decisions.configure('tool-agent', { AGENT_UNAVAILABLE: '1' })).ok).toBe(true);
    try {
      const c = await agentConversation();
      const conv = await app.turnEnded(c, await app.say(c, 'hello'));
      expect(conv.messages.at(-1)).toEqual(expect.objectContaining({ status: 'error', retry: expect.any(Object) }));
      expect(conv.messages.at(-1)?.failure?.message).toMatch(/tool-agent is not available: API key not set/);
    } finally {
      await app.registry.decisions.configure('tool-agent', { AGENT_UNAVAILABLE: '' });
    }
  });
});
