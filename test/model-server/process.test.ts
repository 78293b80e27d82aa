/**
 * The scripted model server as a separate process (main.ts), the way Playwright and CLI tests
 * will use it: a script file, more steps over the control endpoint, the record read back over
 * HTTP, and a stop that leaves no process behind. It stands in for a language model, which cannot
 * run on these machines; the AI SDK that talks to it here is the real one.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { gone } from '../helpers/processes';
import { spawnModelServer, type ModelServerProcess } from './process';
import { text } from './steps';

let proc: ModelServerProcess | undefined;
let dir: string | undefined;

afterEach(async () => {
  await proc?.stop();
  proc = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

test('serves a script file, takes more steps over the control endpoint, and reports what it was sent', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'model-server-'));
  const file = path.join(dir, 'script.json');
  writeFileSync(
    file,
    JSON.stringify({ steps: [text('from ', 'the file')], fallback: text('echo: {{last_user_text}}') }),
  );
  proc = await spawnModelServer({ scriptFile: file, apiKey: 'sk-proc', models: ['phi4'] });
  expect(proc.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

  const model = createOpenAICompatible({
    name: 'llamacpp',
    baseURL: proc.baseURL,
    apiKey: 'sk-proc',
    includeUsage: true,
  })('phi4');
  expect(await streamText({ model, prompt: 'first' }).text).toBe('from the file');
  expect(await proc.script({ steps: [text('from ', 'control')] })).toBe(1);
  expect(await streamText({ model, prompt: 'second' }).text).toBe('from control');
  expect(await streamText({ model, prompt: 'third' }).text).toBe('echo: third');

  const calls = await proc.modelCalls();
  expect(calls.map((c) => [c.headers.authorization, (c.body as { messages: unknown[] }).messages])).toEqual([
    ['Bearer sk-proc', [{ role: 'user', content: 'first' }]],
    ['Bearer sk-proc', [{ role: 'user', content: 'second' }]],
    ['Bearer sk-proc', [{ role: 'user', content: 'third' }]],
  ]);
  expect(calls.every((c) => c.outcome === 'answered')).toBe(true);
  const list = (await (
    await fetch(`${proc.baseURL}/models`, { headers: { authorization: 'Bearer sk-proc' } })
  ).json()) as { data: Array<{ id: string }> };
  expect(list.data.map((m) => m.id)).toEqual(['phi4']);

  const pid = proc.pid;
  await proc.stop();
  proc = undefined;
  expect(await gone(pid)).toBe(true);
});

test('a bad script file stops the process with a message that names the file and the fault', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'model-server-'));
  const file = path.join(dir, 'bad.json');
  writeFileSync(file, JSON.stringify({ steps: [{ type: 'reply', toolCalls: [{ arguments: {} }] }] }));
  await expect(spawnModelServer({ scriptFile: file })).rejects.toThrow(
    new RegExp(`exited \\(2\\).*the script ${file} is invalid.*name`, 's'),
  );
});
