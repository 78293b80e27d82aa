/**
 * The example agent plugin (examples/ollama-agent): a real Mehrhof agent built on the AI SDK,
 * chosen as a conversation's model, with the scripted model server as its OpenAI-compatible
 * server (no model can run here). The Mehrhof protocol has a real plugin on both sides: the host
 * offers tools, the agent's model calls one, the host runs it and answers with agent.tool_result.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePlugin, REPO } from '../helpers/plugins';
import { toolResults } from '../model-server/requests';
import { ModelServer } from '../model-server/server';
import { text, toolCalls } from '../model-server/steps';
import { assistantApp, closeAll, type AssistantApp } from './helpers';

let app: AssistantApp;
let model: ModelServer;

beforeAll(async () => {
  app = await assistantApp('assistant-agent-example');
  model = await ModelServer.start();
  expect(
    (await app.registry.installer.install(path.join(REPO, 'examples', 'ollama-agent'), { grant: 'requested' })).ok,
  ).toBe(true);
  expect(
    (
      await app.registry.decisions.configure('ollama-agent', {
        AGENT_BASE_URL: model.baseURL,
        AGENT_MODEL: 'scripted-model',
      })
    ).ok,
  ).toBe(true);
  const echo = fixturePlugin({
    script: 'gassist',
    id: 'echoer',
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

afterAll(() => closeAll(app, model));

async function agentConversation(): Promise<string> {
  const c = await app.conversation();
  await app.backend.invoke('chat.setModel', { conversationId: c, model: 'agent:ollama-agent' });
  return c;
}

describe('the example agent plugin', () => {
  it('answers through its model server, and its model’s tool call runs in Plugboard with the result sent back', async () => {
    model.script(toolCalls({ name: 'echoer__echo', arguments: { text: 'ping' } }), text('The echo said ping.'));
    const c = await agentConversation();
    const conv = await app.turnEnded(c, await app.say(c, 'Echo ping for me'));
    expect(conv.messages.find((m) => m.role === 'plugin')).toEqual(
      expect.objectContaining({
        pluginId: 'echoer',
        tool: 'echo',
        args: { text: 'ping' },
        status: 'done',
        text: 'ping',
      }),
    );
    expect(conv.messages.at(-1)).toEqual(
      expect.objectContaining({
        role: 'assistant',
        text: 'The echo said ping.',
        status: 'done',
        model: 'agent:ollama-agent',
      }),
    );
    // What the agent's model server was sent: the tool Plugboard offered, then the tool's result.
    const [first, second] = model.modelCalls.slice(-2);
    expect(JSON.stringify(first?.body)).toContain('echoer__echo');
    expect(toolResults(second!)).toEqual([expect.objectContaining({ text: 'ping', isError: false })]);
  });

  it('says why it cannot answer when no model server runs where it is pointed', async () => {
    const closed = await ModelServer.start();
    const url = closed.baseURL;
    await closed.close();
    expect((await app.registry.decisions.configure('ollama-agent', { AGENT_BASE_URL: url })).ok).toBe(true);
    try {
      const c = await agentConversation();
      const conv = await app.turnEnded(c, await app.say(c, 'hello'));
      expect(conv.messages.at(-1)).toEqual(expect.objectContaining({ status: 'error', retry: expect.any(Object) }));
      expect(conv.messages.at(-1)?.failure?.message).toMatch(
        /ollama-agent is not available: no model server answers at http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\)/,
      );
    } finally {
      await app.registry.decisions.configure('ollama-agent', { AGENT_BASE_URL: model.baseURL });
    }
  });
});
