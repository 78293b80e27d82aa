/**
 * Connecting a model, as Settings → Models does it through the back end: add, edit, rename,
 * remove, choose the default, "Test connection" (latency or the precise error), the servers found
 * running on loopback, API keys kept in the secret store only, a model per conversation, and,
 * with no model at all, the "Connect a model" card with the tools that match what was typed.
 * Model servers are the scripted one (no model can run here), in the providers' real formats.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverLocal, LOCAL_SERVERS } from '../../src/main/assistant/models/discovery';
import { ModelServer } from '../model-server/server';
import { text } from '../model-server/steps';
import { assistantApp, closeAll, type AssistantApp } from './helpers';

let app: AssistantApp;
let openai: ModelServer;
let anthropic: ModelServer;
const OPENAI_KEY = 'sk-test-openai-5f2a9c1e7b3d';
const ANTHROPIC_KEY = 'sk-ant-test-8d1b4e6a2c9f';

beforeAll(async () => {
  app = await assistantApp('assistant-models');
  openai = await ModelServer.start({ apiKey: OPENAI_KEY, models: ['gpt-scripted', 'gpt-other'] });
  anthropic = await ModelServer.start({ apiKey: ANTHROPIC_KEY, models: ['claude-scripted'] });
});

afterAll(() => closeAll(app, openai, anthropic));

const invoke = ((...a: Parameters<AssistantApp['backend']['invoke']>) =>
  app.backend.invoke(...a)) as AssistantApp['backend']['invoke'];

describe('without a model', () => {
  it('a plain message gets the "Connect a model" card, with the exposed tools that match what was typed', async () => {
    const c = await app.conversation();
    const r = await invoke('chat.send', { conversationId: c, text: 'count to five please' });
    expect(r).toEqual({ ok: true, turnId: null });
    const conv = await invoke('chat.get', { id: c });
    expect(conv?.messages.map((m) => m.role)).toEqual(['user', 'system']);
    const note = conv?.messages[1];
    expect(note?.text).toMatch(/No model is connected/);
    expect(note?.card?.type).toBe('connect-model');
    expect(note?.card?.suggestions[0]).toEqual({ plugin: 'hello', tool: 'count' });
    // Nothing went to any model server.
    expect(openai.modelCalls).toEqual([]);
  });

  it('suggestions never include a tool that is switched off', async () => {
    await app.registry.decisions.setExposed('hello', 'count', false);
    const hits = await invoke('tools.suggest', { text: 'count to five' });
    expect(hits.map((h) => `${h.plugin}:${h.name}`)).not.toContain('hello:count');
    await app.registry.decisions.setExposed('hello', 'count', true);
    expect((await invoke('tools.suggest', { text: 'count to five' }))[0]).toEqual(
      expect.objectContaining({ plugin: 'hello', name: 'count' }),
    );
  });

  it('a / command still runs without a model', async () => {
    const c = await app.conversation();
    const r = await invoke('chat.send', { conversationId: c, text: '/hello:say_hello name=Ada' });
    expect(r.ok && r.turnId).toBeTruthy();
  });
});

describe('Settings → Models', () => {
  it('"Test connection" gives the latency and the models the server has, or the precise error', async () => {
    const ok = await invoke('models.test', {
      provider: 'openai',
      baseURL: openai.baseURL,
      model: 'gpt-scripted',
      apiKey: OPENAI_KEY,
    });
    expect(ok).toEqual({ ok: true, latencyMs: expect.any(Number), models: ['gpt-scripted', 'gpt-other'] });
    const wrongKey = await invoke('models.test', {
      provider: 'openai',
      baseURL: openai.baseURL,
      model: 'gpt-scripted',
      apiKey: 'sk-wrong-0000000000',
    });
    expect(wrongKey).toEqual(
      expect.objectContaining({
        ok: false,
        code: 'model_refused',
        message: expect.stringMatching(/refused the API key \(401\)/),
      }),
    );
    expect(JSON.stringify(wrongKey)).not.toContain('sk-wrong-0000000000');
    const wrongModel = await invoke('models.test', {
      provider: 'openai',
      baseURL: openai.baseURL,
      model: 'gpt-nope',
      apiKey: OPENAI_KEY,
    });
    expect(wrongModel).toEqual(
      expect.objectContaining({
        ok: false,
        message: expect.stringMatching(/has no model "gpt-nope" \(it has: gpt-scripted, gpt-other\)/),
      }),
    );
    const claude = await invoke('models.test', {
      provider: 'anthropic',
      baseURL: anthropic.baseURL,
      model: 'claude-scripted',
      apiKey: ANTHROPIC_KEY,
    });
    expect(claude).toEqual(expect.objectContaining({ ok: true, models: ['claude-scripted'] }));
    const noUrl = await invoke('models.test', { provider: 'openai-compatible', baseURL: null, model: 'x' });
    expect(noUrl).toEqual(
      expect.objectContaining({
        ok: false,
        code: 'invalid_input',
        message: expect.stringMatching(/needs its base URL/),
      }),
    );
  });

  it('saves models with their keys in the secret store, never in models.json or the audit log', async () => {
    expect(
      await invoke('models.save', {
        name: 'GPT',
        provider: 'openai',
        baseURL: openai.baseURL,
        model: 'gpt-scripted',
        apiKey: OPENAI_KEY,
      }),
    ).toEqual(expect.objectContaining({ ok: true }));
    expect(
      await invoke('models.save', {
        name: 'Claude',
        provider: 'anthropic',
        baseURL: anthropic.baseURL,
        model: 'claude-scripted',
        apiKey: ANTHROPIC_KEY,
        makeDefault: true,
      }),
    ).toEqual(expect.objectContaining({ ok: true }));
    const view = await invoke('models.list', {});
    expect(view.defaultModel).toBe('Claude');
    expect(view.models.map((m) => [m.name, m.provider, m.hasKey, m.isDefault])).toEqual([
      ['GPT', 'openai', true, false],
      ['Claude', 'anthropic', true, true],
    ]);
    expect(JSON.stringify(view)).not.toMatch(/sk-(test|ant)/);
    for (const file of ['models.json', 'state.json', 'audit.log']) {
      const p = path.join(app.dataDir, file);
      const body = (() => {
        try {
          return readFileSync(p, 'utf8');
        } catch {
          return '';
        }
      })();
      expect(body, file).not.toContain(OPENAI_KEY);
      expect(body, file).not.toContain(ANTHROPIC_KEY);
    }
    // A saved model tests with its stored key.
    expect(await invoke('models.test', { name: 'GPT' })).toEqual(expect.objectContaining({ ok: true }));
  });

  it('refuses a bad model with what was wrong: a duplicate name, a base URL that is not one', async () => {
    const dup = await invoke('models.save', { name: 'GPT', provider: 'openai', baseURL: null, model: 'gpt-4.1' });
    expect(dup).toEqual(expect.objectContaining({ ok: false, message: expect.stringMatching(/"GPT"/) }));
    const badUrl = await invoke('models.save', {
      name: 'Bad',
      provider: 'openai-compatible',
      baseURL: 'localhost:11434',
      model: 'llama3',
    });
    expect(badUrl).toEqual(expect.objectContaining({ ok: false, message: expect.stringMatching(/base URL/) }));
    expect((await invoke('models.list', {})).models.map((m) => m.name)).toEqual(['GPT', 'Claude']);
  });

  it('answers with the default model, and with the conversation’s own where it has one', async () => {
    anthropic.script(text('From Claude.'));
    const c = await app.conversation();
    let conv = await app.turnEnded(c, await app.say(c, 'Who are you?'));
    expect(conv.messages.at(-1)).toEqual(expect.objectContaining({ text: 'From Claude.', model: 'Claude' }));
    expect(anthropic.modelCalls.at(-1)?.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    await invoke('chat.setModel', { conversationId: c, model: 'GPT' });
    openai.script(text('From GPT.'));
    conv = await app.turnEnded(c, await app.say(c, 'And now?'));
    expect(conv.model).toBe('GPT');
    expect(conv.messages.at(-1)).toEqual(expect.objectContaining({ text: 'From GPT.', model: 'GPT' }));
    expect(openai.modelCalls.at(-1)?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    // The whole conversation went to the new model, Claude's answer included.
    expect(openai.modelCalls.at(-1)?.rawBody).toContain('From Claude.');
  });

  it('edits a model (renamed, key kept) and removes one (its key goes with it)', async () => {
    expect(
      await invoke('models.save', {
        name: 'GPT mini',
        previousName: 'GPT',
        provider: 'openai',
        baseURL: openai.baseURL,
        model: 'gpt-other',
      }),
    ).toEqual(expect.objectContaining({ ok: true }));
    expect(await invoke('models.test', { name: 'GPT mini' })).toEqual(expect.objectContaining({ ok: true }));
    expect(await invoke('models.remove', { name: 'GPT mini' })).toEqual(expect.objectContaining({ ok: true }));
    expect(readFileSync(path.join(app.dataDir, 'secrets.json'), 'utf8')).not.toContain(OPENAI_KEY);
    expect((await invoke('models.list', {})).models.map((m) => m.name)).toEqual(['Claude']);
    expect(await invoke('models.remove', { name: 'GPT mini' })).toEqual(
      expect.objectContaining({ ok: false, code: 'not_found' }),
    );
  });
});

describe('servers running on this computer', () => {
  it('finds OpenAI-compatible and Ollama servers on loopback, and skips ports with nothing or something else behind them', async () => {
    const local = await ModelServer.start({ models: ['llama3.2:1b'] });
    const silent = createServer((s) => s.destroy());
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const silentPort = (silent.address() as { port: number }).port;
    try {
      const found = await discoverLocal([
        { kind: 'ollama', title: 'Ollama', baseURL: local.baseURL },
        { kind: 'lmstudio', title: 'LM Studio', baseURL: `http://127.0.0.1:${silentPort}/v1` },
        { kind: 'llamacpp', title: 'llama.cpp server', baseURL: 'http://127.0.0.1:9/v1' },
      ]);
      expect(found).toEqual([{ kind: 'ollama', title: 'Ollama', baseURL: local.baseURL, models: ['llama3.2:1b'] }]);
    } finally {
      silent.close();
      await local.close();
    }
  });

  it('the app probes Ollama, LM Studio and llama.cpp on their usual ports, on loopback only', () => {
    expect(LOCAL_SERVERS.map((s) => new URL(s.baseURL)).map((u) => `${u.hostname}:${u.port}`)).toEqual([
      '127.0.0.1:11434',
      '127.0.0.1:1234',
      '127.0.0.1:8080',
    ]);
  });
});
