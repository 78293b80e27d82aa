/**
 * Prompt enrichment: the person's message goes through the enrichers of enabled plugins before a
 * model reads it. The model gets the enriched text; the transcript keeps what was typed and what
 * each enricher added; one that fails or takes too long is skipped and noted, and the turn goes
 * on. Real plugins (the bundled files plugin's `@path` mentions, fixtures that fail and stall) and
 * the scripted model server (no model can run here).
 */
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/shared/contract';
import { fixturePlugin, tmpDir } from '../helpers/plugins';
import { lastUserText, offeredTools } from '../model-server/requests';
import { ModelServer } from '../model-server/server';
import { fail, text } from '../model-server/steps';
import { assistantApp, closeAll, type AssistantApp } from './helpers';

let app: AssistantApp;
let model: ModelServer;
let shared: string;

beforeAll(async () => {
  app = await assistantApp('assistant-enrichment');
  shared = realpathSync(tmpDir('enrichment-shared'));
  writeFileSync(path.join(shared, 'notes.md'), '# Notes\nThe launch is on Friday.\n');
  expect((await app.registry.decisions.configure('files', { roots: [shared] })).ok).toBe(true);
  for (const id of ['terminal', 'todo', 'hello']) await app.registry.decisions.setEnabled(id, false);
  model = await ModelServer.start();
  await app.connect(model);
});

afterAll(() => closeAll(app, model));

async function turn(said: string): Promise<{ user: ChatMessage; messages: ChatMessage[] }> {
  model.script(text('Done.'));
  const c = await app.conversation();
  const messages = (await app.turnEnded(c, await app.say(c, said))).messages;
  return { user: messages.find((m) => m.role === 'user')!, messages };
}

describe('prompt enrichment', () => {
  it('gives the model the files an @mention names; the message keeps what was typed and says what was attached, by whom', async () => {
    const { user, messages } = await turn('When is the launch? See @notes.md');
    const sent = model.modelCalls.at(-1)!;
    expect(lastUserText(sent)).toContain('When is the launch? See @notes.md\n\nAttached file');
    expect(lastUserText(sent)).toContain('The launch is on Friday.');
    // The enricher is the host's, never a tool the model may call.
    expect(offeredTools(sent).map((t) => t.name)).not.toContain('files__attach_mentions');
    expect(user.text).toBe('When is the launch? See @notes.md');
    expect(user.enrichment).toEqual([
      expect.objectContaining({
        plugin: 'files',
        ok: true,
        note: 'attached notes.md (33 B)',
        added: expect.stringContaining('The launch is on Friday.'),
      }),
    ]);
    expect(messages.at(-1)).toEqual(expect.objectContaining({ role: 'assistant', text: 'Done.', status: 'done' }));
  });

  it('does not ask an enricher whose plugin still needs settings: no "skipped" note under every message', async () => {
    expect((await app.registry.decisions.configure('files', { roots: null })).ok).toBe(true);
    try {
      expect(app.registry.missingSettings('files')).toEqual(['roots']);
      const { user } = await turn('See @notes.md');
      expect(user.enrichment).toEqual([]);
    } finally {
      expect((await app.registry.decisions.configure('files', { roots: [shared] })).ok).toBe(true);
    }
  });

  it('leaves a message without mentions as it was, and notes nothing', async () => {
    const { user } = await turn('Hello there');
    expect(lastUserText(model.modelCalls.at(-1)!)).toBe('Hello there');
    expect(user.enriched).toBeUndefined();
    expect(user.enrichment).toEqual([]);
  });

  it('skips an enricher that fails and one that does not answer in time, says so, and the turn goes on', async () => {
    const failing = fixturePlugin({
      script: 'jsonrpc',
      id: 'enrich-fails',
      manifest: { prompt_enrichment: 'plan_fail', functions: [{ name: 'plan_fail' }] },
    });
    const stalling = fixturePlugin({
      script: 'jsonrpc',
      id: 'enrich-stalls',
      manifest: { prompt_enrichment: 'stall', functions: [{ name: 'stall' }] },
    });
    for (const dir of [failing, stalling]) expect((await app.registry.installer.install(dir)).ok).toBe(true);
    try {
      const { user, messages } = await turn('Read @notes.md please');
      expect(user.enrichment).toEqual([
        expect.objectContaining({
          plugin: 'enrich-fails',
          ok: false,
          note: expect.stringMatching(/^skipped \(.*Execution failed/),
        }),
        expect.objectContaining({ plugin: 'enrich-stalls', ok: false, note: 'skipped (took longer than 3 s)' }),
        expect.objectContaining({ plugin: 'files', ok: true }),
      ]);
      expect(lastUserText(model.modelCalls.at(-1)!)).toContain('The launch is on Friday.');
      expect(messages.at(-1)).toEqual(expect.objectContaining({ role: 'assistant', status: 'done' }));
    } finally {
      for (const id of ['enrich-fails', 'enrich-stalls']) await app.registry.installer.uninstall(id);
    }
  });

  it('reads the message as it was enriched the first time when the turn is retried', async () => {
    model.script(fail('unauthorized'));
    const c = await app.conversation();
    const failed = await app.turnEnded(c, await app.say(c, 'Summarise @notes.md'));
    expect(failed.messages.at(-1)?.status).toBe('error');
    const calls = model.modelCalls.length;
    writeFileSync(path.join(shared, 'notes.md'), 'changed since\n');
    model.script(text('Summary.'));
    const r = (await app.backend.invoke('chat.retry', { conversationId: c })) as { ok: true; turnId: string };
    await app.turnEnded(c, r.turnId);
    expect(model.modelCalls.length).toBe(calls + 1);
    expect(lastUserText(model.modelCalls.at(-1)!)).toContain('The launch is on Friday.');
  });
});
