/**
 * What goes into a model request beyond the conversation: plugins' system instructions (only for
 * plugins offered, in a stable order, within a budget), the tools offered when there are too many
 * to send (the most relevant, and find_tools for the rest), the assistant's own ask_user, and the
 * tokens each turn, conversation and model took (estimated where the server gives no counts).
 * Real plugins and the scripted model server (no model can run here).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, Conversation } from '../../src/shared/contract';
import { fixturePlugin } from '../helpers/plugins';
import { offeredTools, systemText, toolResults } from '../model-server/requests';
import { ModelServer } from '../model-server/server';
import { text, toolCalls } from '../model-server/steps';
import { assistantApp, closeAll, installFixtures, type AssistantApp } from './helpers';

let app: AssistantApp;
let model: ModelServer;

const fn = (name: string, description: string) => ({
  name,
  description,
  parameters: { type: 'object', properties: { value: { type: 'string', description: 'What to work on' } } },
});

/** A plugin with 150 tools, among them a few that matter to the tests. */
function manyTools(): string {
  const noise = Array.from({ length: 146 }, (_, i) =>
    fn(`widget_${i}`, `Adjusts widget number ${i} of the assembly line`),
  );
  return fixturePlugin({
    script: 'gassist',
    id: 'toolbox',
    // echo comes last: when the budget fills up with tools in their usual order, it is left out.
    manifest: {
      functions: [
        fn('weather_forecast', 'Forecast the weather for a city'),
        fn('currency_convert', 'Convert an amount between currencies'),
        fn('translate_text', 'Translate text into another language'),
        ...noise,
        {
          name: 'echo',
          description: 'Say the text back, word for word',
          parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        },
      ],
    },
  });
}

beforeAll(async () => {
  app = await assistantApp('assistant-requests');
  await installFixtures(app, 'mcp-dynamic');
  const noted = fixturePlugin({
    script: 'gassist',
    id: 'noted',
    manifest: { functions: [fn('echo', 'Say it back')], system_instructions: 'Noted: always quote the user.' },
  });
  for (const dir of [noted, manyTools()]) expect((await app.registry.installer.install(dir)).ok).toBe(true);
  // The bundled plugins have instructions of their own: out of the way.
  for (const id of ['files', 'terminal', 'todo', 'hello']) await app.registry.decisions.setEnabled(id, false);
  await app.registry.decisions.setToolPolicy('toolbox', 'echo', 'allow');
  model = await ModelServer.start();
  await app.connect(model);
});

afterAll(() => closeAll(app, model));

async function turn(said: string, ...steps: Parameters<ModelServer['script']>): Promise<ChatMessage[]> {
  model.script(...steps);
  const c = await app.conversation();
  return (await app.turnEnded(c, await app.say(c, said))).messages;
}

describe('system instructions', () => {
  it('carries the instructions of the plugins offered, in plugin order, MCP servers’ included once they ran', async () => {
    await app.registry.decisions.setExposed('toolbox', undefined, false);
    await app.registry.call('mcp-dynamic', 'list_added', {}).done;
    const messages = await turn('Hi', text('Hello.'));
    const system = systemText(model.modelCalls.at(-1)!) ?? '';
    expect(system).toContain('Noted: always quote the user.');
    expect(system).toContain('Call list_added before you remove a tool.');
    expect(system.indexOf('MCP dynamic')).toBeLessThan(system.indexOf('noted'));
    expect(messages.at(-1)?.request).toEqual(
      expect.objectContaining({ instructionsFrom: ['mcp-dynamic', 'noted'], instructionsLeftOut: [] }),
    );
  });

  it('leaves out a plugin whose tools are not offered', async () => {
    await app.registry.decisions.setExposed('noted', 'echo', false);
    await turn('Hi', text('Hello.'));
    expect(systemText(model.modelCalls.at(-1)!)).not.toContain('always quote the user');
    await app.registry.decisions.setExposed('noted', 'echo', true);
  });

  it('keeps to the budget, and says whose instructions it left out', async () => {
    await app.backend.invoke('assistant.configure', { instructionsTokens: 30 });
    const messages = await turn('Hi', text('Hello.'));
    expect(messages.at(-1)?.request?.instructionsFrom).toEqual(['mcp-dynamic']);
    expect(messages.at(-1)?.request?.instructionsLeftOut).toEqual(['noted']);
    await app.backend.invoke('assistant.configure', { instructionsTokens: 4000 });
  });
});

describe('many tools', () => {
  it('offers the most relevant ones under the budget, and find_tools for the rest', async () => {
    await app.registry.decisions.setExposed('toolbox', undefined, true);
    const messages = await turn('What will the weather be in Paris tomorrow?', text('Sunny.'));
    const offered = offeredTools(model.modelCalls.at(-1)!).map((t) => t.name);
    expect(offered.length).toBeLessThanOrEqual(40 + 1);
    expect(offered).toContain('toolbox__weather_forecast');
    expect(offered).toContain('find_tools');
    expect(offered).toContain('ask_user');
    expect(offered).not.toContain('toolbox__widget_99');
    const info = messages.at(-1)?.request;
    expect(info?.toolsTotal).toBeGreaterThanOrEqual(150);
    expect(info?.tools).toEqual(offered);
  });

  it('find_tools finds the others, and they are offered from the next step on', async () => {
    const messages = await turn(
      'Weather please',
      toolCalls({ name: 'find_tools', arguments: { query: 'say the text back word for word' } }),
      toolCalls({ name: 'toolbox__echo', arguments: { text: '10 EUR' } }),
      text('Done.'),
    );
    const found = messages.find((m) => m.tool === 'find_tools');
    expect(found?.text).toMatch(/toolbox__echo: Say the text back, word for word/);
    expect(found?.call?.builtin).toBe('find_tools');
    const [, second, third] = model.modelCalls.slice(-3);
    expect(offeredTools(model.modelCalls.at(-3)!).map((t) => t.name)).not.toContain('toolbox__echo');
    expect(offeredTools(second!).map((t) => t.name)).toContain('toolbox__echo');
    expect(messages.find((m) => m.tool === 'echo')).toEqual(
      expect.objectContaining({ status: 'done', text: '10 EUR' }),
    );
    expect(toolResults(third!).at(-1)?.text).toBe('10 EUR');
  });

  it('offers every tool when they fit the budget', async () => {
    await app.backend.invoke('assistant.configure', { maxTools: 512, maxToolTokens: 200_000 });
    await turn('Hi', text('Hello.'));
    const offered = offeredTools(model.modelCalls.at(-1)!).map((t) => t.name);
    expect(offered).toContain('toolbox__widget_99');
    expect(offered).not.toContain('find_tools');
    await app.backend.invoke('assistant.configure', { maxTools: 40, maxToolTokens: 16_000 });
  });

  it('the plugin panel shows what each tool’s declaration costs', async () => {
    const detail = await app.backend.invoke('plugins.detail', { id: 'toolbox' });
    const weather = detail?.tools.find((t) => t.name === 'weather_forecast');
    expect(weather?.declarationTokens).toBeGreaterThan(10);
    expect(weather?.declarationTokens).toBeLessThan(200);
  });
});

describe('ask_user', () => {
  it('asks the person on a card; a choice that is not offered is refused; the answer is the result', async () => {
    await app.registry.decisions.setExposed('toolbox', undefined, false);
    model.script(
      toolCalls({ name: 'ask_user', arguments: { question: 'Which colour?', choices: ['red', 'blue'] } }),
      text('Blue it is.'),
    );
    const c = await app.conversation();
    const turnId = await app.say(c, 'Paint it');
    const card = await new Promise<ChatMessage>((resolve) => {
      const sub = app.backend.onDidEvent((e) => {
        if (e.name === 'chat.turn' && e.payload.type === 'start' && e.payload.message.call?.builtin === 'ask_user') {
          sub.dispose();
          resolve(e.payload.message);
        }
      });
    });
    expect(card.call?.question).toEqual({ question: 'Which colour?', choices: ['red', 'blue'] });
    expect(await app.backend.invoke('chat.answer', { callId: card.call!.id, answer: 'green' })).toEqual(
      expect.objectContaining({ ok: false, message: 'not one of the choices: green' }),
    );
    expect(await app.backend.invoke('chat.answer', { callId: card.call!.id, answer: ['red', 'blue'] })).toEqual(
      expect.objectContaining({ ok: false, message: 'pick one of the choices' }),
    );
    expect(await app.backend.invoke('chat.answer', { callId: card.call!.id, answer: 'blue' })).toEqual(
      expect.objectContaining({ ok: true }),
    );
    const conv = await app.turnEnded(c, turnId);
    expect(conv.messages.find((m) => m.id === card.id)).toEqual(
      expect.objectContaining({ status: 'done', text: 'blue' }),
    );
    expect(toolResults(model.modelCalls.at(-1)!).at(-1)?.text).toBe('blue');
    // Not a plugin call: nothing in the audit log.
    expect(readFileSync(path.join(app.dataDir, 'audit.log'), 'utf8')).not.toMatch(/ask_user/);
  });
});

describe('tokens', () => {
  it('estimates where the server gives no counts, and sums per conversation and per model', async () => {
    model.script({ type: 'reply', text: ['Counted ', 'nothing.'], noUsage: true });
    const c = await app.conversation();
    let conv = await app.turnEnded(c, await app.say(c, 'How many?'));
    const estimated = conv.messages.at(-1)?.usage;
    expect(estimated).toEqual({ inputTokens: expect.any(Number), outputTokens: 4, estimated: true });
    model.script({ type: 'reply', text: 'Exact.', usage: { input: 100, output: 7 } });
    conv = await app.turnEnded(c, await app.say(c, 'And now?'));
    expect(conv.tokens).toEqual({
      inputTokens: (estimated?.inputTokens ?? 0) + 100,
      outputTokens: 11,
      estimated: true,
    });
    const byModel = await app.backend.invoke('models.usage', {});
    expect(byModel).toEqual([expect.objectContaining({ model: 'Scripted', estimated: true })]);
    expect(byModel[0]?.inputTokens).toBeGreaterThanOrEqual(conv.tokens.inputTokens);
  });

  it('counts nothing for requests the model never answered (issue 21: each failure added thousands)', async () => {
    const c = await app.conversation();
    for (let i = 0; i < 3; i++) {
      model.script({ type: 'error', error: 'server-error' });
      const conv = await app.turnEnded(c, await app.say(c, `Try ${i}`));
      expect(conv.messages.at(-1)?.status).toBe('error');
    }
    const conv = (await app.backend.invoke('chat.get', { id: c })) as Conversation;
    expect(conv.tokens).toEqual({ inputTokens: 0, outputTokens: 0, estimated: false });
  });
});

describe('user commands', () => {
  it('keeps a command its plugin does not share (share_with_model false) and its result from the model; shares the others', async () => {
    const dir = fixturePlugin({
      script: 'gassist',
      id: 'commands',
      manifest: {
        functions: [fn('echo', 'Say it back'), fn('count', 'Count up')],
        user_commands: [
          { name: 'echo', description: 'Say it back', share_with_model: false },
          { name: 'count', description: 'Count up', share_with_model: true },
        ],
      },
    });
    expect((await app.registry.installer.install(dir)).ok).toBe(true);
    const c = await app.conversation();
    for (const [tool, args] of [
      ['echo', { text: 'PIN 4411' }],
      ['count', { n: 2 }],
    ] as const) {
      const r = (await app.backend.invoke('chat.invoke', { conversationId: c, plugin: 'commands', tool, args })) as {
        ok: true;
        turnId: string;
      };
      await app.turnEnded(c, r.turnId);
    }
    model.script(text('Noted.'));
    const conv = await app.turnEnded(c, await app.say(c, 'What did I run?'));
    expect(conv.messages.filter((m) => m.unshared).map((m) => m.role)).toEqual(['user', 'plugin']);
    const sent = model.modelCalls.at(-1)!.rawBody;
    expect(sent).toContain('counted to 2');
    expect(sent).not.toContain('4411');
    // Neither command is a tool the model is offered.
    expect(offeredTools(model.modelCalls.at(-1)!).map((t) => t.name)).not.toEqual(
      expect.arrayContaining(['commands__echo']),
    );
    expect(offeredTools(model.modelCalls.at(-1)!).map((t) => t.name)).not.toEqual(
      expect.arrayContaining(['commands__count']),
    );
    await app.registry.installer.uninstall('commands');
  });
});
