/**
 * Settings → Approvals: the default policy for tools the person set none for, as the assistant
 * honours it: `ask` makes even a read-only tool's call wait for an answer, `allow` runs any call,
 * a tool's own policy still wins, and the choice is kept in the data folder and audited. The real
 * back end and bundled plugins; the scripted model server plays the model (none can run here).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { REPO } from '../helpers/plugins';
import { ModelServer } from '../model-server/server';
import { text, toolCalls } from '../model-server/steps';
import { assistantApp, closeAll, type AssistantApp } from './helpers';

let app: AssistantApp;
let model: ModelServer;

beforeAll(async () => {
  app = await assistantApp('approval-default');
  model = await ModelServer.start();
  await app.connect(model);
});

afterAll(() => closeAll(app, model));

describe('the default approval policy', () => {
  it('is read-only unless changed: auto-approved tools run, the rest ask', async () => {
    expect(await app.backend.invoke('approvals.default', {})).toEqual({ policy: 'read-only' });
    expect(app.registry.decisions.toolPolicy('hello', 'count')).toEqual({ policy: 'allow', defaultPolicy: 'allow' });
    expect(app.registry.decisions.toolPolicy('hello', 'start_conversation').policy).toBe('ask');
  });

  it('ask: a read-only tool’s call waits for the person’s answer', async () => {
    expect(await app.backend.invoke('approvals.setDefault', { policy: 'ask' })).toEqual({
      ok: true,
      detail: 'default approval set to ask',
    });
    expect(app.registry.decisions.toolPolicy('hello', 'count')).toEqual({ policy: 'ask', defaultPolicy: 'ask' });
    model.script(toolCalls({ name: 'hello__count', arguments: { to: 2 } }), text('Counted.'));
    const c = await app.conversation();
    const turn = await app.say(c, 'Count to 2');
    const asked = await app.prompt(c);
    expect(asked).toMatchObject({ tool: 'count', call: { approval: { state: 'pending' } } });
    await app.backend.invoke('chat.approve', { callId: asked.call!.id, decision: 'once' });
    const conv = await app.turnEnded(c, turn);
    expect(conv.messages.find((m) => m.tool === 'count')?.call?.approval).toEqual({
      state: 'allowed',
      by: 'person',
      decision: 'once',
    });
  });

  it('allow: any call runs unasked, but a tool’s own policy still wins', async () => {
    await app.backend.invoke('approvals.setDefault', { policy: 'allow' });
    expect(app.registry.decisions.toolPolicy('hello', 'start_conversation')).toEqual({
      policy: 'allow',
      defaultPolicy: 'allow',
    });
    await app.registry.decisions.setToolPolicy('hello', 'count', 'deny');
    expect(app.registry.decisions.toolPolicy('hello', 'count').policy).toBe('deny');
    await app.registry.decisions.setToolPolicy('hello', 'count', null);
  });

  it('is kept in the data folder, read by the next Plugboard, and audited', async () => {
    const again = await PluginRegistry.open({ dataDir: app.dataDir, bundledDir: path.join(REPO, 'plugins') });
    try {
      expect(again.decisions.approvalDefault()).toBe('allow');
    } finally {
      again.dispose();
    }
    const lines = readFileSync(path.join(app.dataDir, 'audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: string; detail: string });
    expect(lines.filter((l) => l.action === 'approval-default').map((l) => l.detail)).toEqual([
      'default approval set to ask',
      'default approval set to allow',
    ]);
    await app.backend.invoke('approvals.setDefault', { policy: 'read-only' });
    expect(app.registry.decisions.toolPolicy('hello', 'start_conversation').policy).toBe('ask');
  });
});
