/**
 * `plugboard chat` on a terminal: the CLI runs in a pseudo-terminal (node-pty), so it sees a
 * person where one would be: the session's prompt, the approval prompt answered with one key,
 * Ctrl-C stopping a turn. Every wait is for text on the screen or a request at the model server,
 * never for time. The model is the scripted model server in this process (none can run here).
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { toolResults } from '../model-server/requests';
import { ModelServer } from '../model-server/server';
import { text, toolCalls } from '../model-server/steps';
import { pbIn, pluginsOf, PtyRun } from './chat-helpers';

let data: string;
let model: ModelServer;
let run: PtyRun | undefined;
/** The session's prompt, waiting for a line: the last thing on the screen. */
const READY = /> $/;
const CONVERSATION = /conversation [0-9a-f-]{36} \(continue it: plugboard chat --conversation [0-9a-f-]{36}\)/;

beforeAll(async () => {
  data = path.join(tmpDir('cli-chat-tty'), 'data');
  model = await ModelServer.start();
  const add = await pbIn(data, [
    'models',
    'add',
    'Scripted',
    '--provider',
    'openai-compatible',
    '--base-url',
    model.baseURL,
    '--model',
    'scripted-model',
  ]);
  expect(add.code, add.stderr).toBe(0);
});

afterEach(async () => {
  run?.kill();
  run = undefined;
  // A test that failed half-way leaves no script steps for the next one.
  model.clearQueue();
  // Whatever the CLI started is stopped by the time it exits.
  expect(pluginsOf(data).map((p) => p.args)).toEqual([]);
});

afterAll(async () => {
  await model.close();
  cleanupFixtures();
});

/** Waits for the screen to end with `pattern` followed by the session's prompt. */
function promptAfter(r: PtyRun, pattern: RegExp): Promise<void> {
  return r.waitFor(new RegExp(`${pattern.source}[^]*${READY.source}`));
}

describe('plugboard chat on a terminal', () => {
  it('holds a session: asks before a call, and "Allow for this conversation" covers the next one', async () => {
    model.script(
      toolCalls({ id: 'call_milk', name: 'todo__add', arguments: { title: 'milk' } }),
      text('Added milk.'),
      toolCalls({ id: 'call_bread', name: 'todo__add', arguments: { title: 'bread' } }),
      text('Added bread.'),
    );
    const r = (run = new PtyRun(['chat', '--data-dir', data]));
    await r.waitFor(READY);
    r.write('Add milk\r');
    await r.waitFor('d: Deny › ');
    expect(r.output).toContain(
      'allow todo:add {"title":"milk"}?   o: Allow once   c: Allow for this conversation   a: Always allow   d: Deny › ',
    );
    r.write('c');
    await promptAfter(r, /Added milk\./);
    expect(r.output).toContain('d: Deny › Allow for this conversation\n');
    r.write('Add bread\r');
    await promptAfter(r, /Added bread\./);
    // Asked once only: the second call was allowed by the first answer.
    expect(r.output.split('d: Deny › ')).toHaveLength(2);
    expect(r.output).toMatch(/→ todo:add \{"title":"bread"\}\n {2}allowed for this conversation\n✓ todo:add \d+ ms\n/);
    r.write('\u0004'); // Ctrl-D
    expect(await r.exited).toBe(0);
    expect(r.output).toMatch(CONVERSATION);
    expect(toolResults(model.modelCalls.at(-1)!).map((t) => t.id)).toEqual(['call_milk', 'call_bread']);
  });

  it('asks the model’s questions on the terminal: a choice by its number (a wrong one asked again), words as typed', async () => {
    model.script(
      toolCalls({
        id: 'call_colour',
        name: 'ask_user',
        arguments: { question: 'Which colour?', choices: ['red', 'blue'] },
      }),
      text('Blue it is.'),
      toolCalls({ id: 'call_guests', name: 'ask_user', arguments: { question: 'For how many people?' } }),
      text('A table for four.'),
    );
    const r = (run = new PtyRun(['chat', '--data-dir', data]));
    await r.waitFor(READY);
    r.write('Paint the fence\r');
    await r.waitFor('number or choice › ');
    expect(r.output).toContain('? Which colour?\n  1. red\n  2. blue\n');
    r.write('7\r');
    await r.waitFor('number or choice › ', 2);
    expect(r.output).toContain('type a number from 1 to 2, or one of the choices');
    r.write('2\r');
    await promptAfter(r, /Blue it is\./);
    expect(toolResults(model.modelCalls.at(-1)!).at(-1)).toEqual(
      expect.objectContaining({ id: 'call_colour', text: 'blue' }),
    );
    r.write('Book a table\r');
    await r.waitFor('answer › ');
    expect(r.output).toContain('? For how many people?\n');
    r.write('four of us\r');
    await promptAfter(r, /A table for four\./);
    expect(toolResults(model.modelCalls.at(-1)!).at(-1)).toEqual(
      expect.objectContaining({ id: 'call_guests', text: 'four of us' }),
    );
    r.write('exit\r');
    expect(await r.exited).toBe(0);
  });

  it('Ctrl-C at a question stops the turn, and the model is not asked again', async () => {
    model.script(toolCalls({ id: 'call_q', name: 'ask_user', arguments: { question: 'Sure?' } }), text('never said'));
    const calls = model.modelCalls.length;
    const r = (run = new PtyRun(['chat', 'Do it', '--data-dir', data]));
    await r.waitFor('answer › ');
    r.write('\u0003');
    expect(await r.exited).toBe(1);
    expect(r.output).toMatch(/cancelled: /);
    expect(r.output).not.toContain('never said');
    expect(model.modelCalls).toHaveLength(calls + 1);
    model.clearQueue();
  });

  it('--json on a terminal: the prompt is on the terminal, and the answer is an approval by the user', async () => {
    model.script(toolCalls({ id: 'call_json', name: 'todo__add', arguments: { title: 'jam' } }), text('Added jam.'));
    const r = (run = new PtyRun(['chat', 'Add jam', '--json', '--data-dir', data]));
    await r.waitFor('d: Deny › ');
    r.write('o');
    expect(await r.exited).toBe(0);
    // stdout and stderr share the terminal: the JSON lines are the lines that are objects.
    const lines = r.output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.type === 'tool_call' || l.type === 'approval')).toEqual([
      { type: 'tool_call', id: 'call_json', plugin: 'todo', tool: 'add', arguments: { title: 'jam' } },
      { type: 'approval', id: 'call_json', decision: 'allowed', by: 'user' },
    ]);
    expect(lines.at(-1)).toEqual({ type: 'done', text: 'Added jam.', conversation: expect.any(String) });
  });

  it('Ctrl-C at an approval prompt stops the turn without running the call; Ctrl-C at the prompt ends the session', async () => {
    model.script(toolCalls({ id: 'call_stop', name: 'todo__add', arguments: { title: 'never' } }));
    const calls = model.modelCalls.length;
    const r = (run = new PtyRun(['chat', '--data-dir', data]));
    await r.waitFor(READY);
    r.write('Add something\r');
    await r.waitFor('d: Deny › ');
    r.write('\u0003');
    await promptAfter(r, /cancelled: /);
    expect(r.output).toContain('stopping the turn… (Ctrl-C again to quit)');
    // The turn ended there: the model was not asked again, and the plan did not get the step.
    expect(model.modelCalls).toHaveLength(calls + 1);
    r.write('\u0003');
    expect(await r.exited).toBe(0);
    const plan = await pbIn(data, ['call', 'todo', 'list']);
    expect(plan.stdout).not.toContain('never');
  });

  it('SIGTERM at the session’s prompt ends it, stopping the plugins its turns started', async () => {
    model.script(toolCalls({ name: 'hello__count', arguments: { to: 2, delay_ms: 0 } }), text('Counted.'));
    const r = (run = new PtyRun(['chat', '--data-dir', data]));
    await r.waitFor(READY);
    r.write('Count to two\r');
    await promptAfter(r, /Counted\./);
    expect(pluginsOf(data).map((p) => p.args)).toEqual(
      expect.arrayContaining([expect.stringContaining('plugins/hello/plugin.mjs')]),
    );
    r.kill('SIGTERM');
    expect(await r.exited).toBe(1);
    expect(r.output).toMatch(CONVERSATION);
  });

  it('SIGTERM during a session’s turn quits at once, the turn stopped', async () => {
    model.script({ type: 'hang' });
    const calls = model.modelCalls.length;
    const r = (run = new PtyRun(['chat', '--data-dir', data]));
    await r.waitFor(READY);
    r.write('Take your time\r');
    await model.waitForModelCalls(calls + 1, 30_000);
    r.kill('SIGTERM');
    expect(await r.exited).toBe(1);
    expect(r.output).toContain('cancelled: interrupted: the turn was stopped, and the command quit');
    await model.waitFor(
      () => model.modelCalls.at(-1)?.outcome === 'client-closed',
      'the stopped request closed by the client',
    );
  });

  it('Ctrl-C during a turn stops the model’s request, and the command exits 1, its plugins stopped', async () => {
    model.script({ type: 'hang' });
    const calls = model.modelCalls.length;
    const r = (run = new PtyRun(['chat', 'Take your time', '--data-dir', data]));
    await model.waitForModelCalls(calls + 1, 30_000);
    r.write('\u0003');
    expect(await r.exited).toBe(1);
    expect(r.output).toContain('stopping the turn… (Ctrl-C again to quit)');
    expect(r.output).toMatch(/cancelled: /);
    expect(r.output).toMatch(CONVERSATION);
    await model.waitFor(
      () => model.modelCalls.at(-1)?.outcome === 'client-closed',
      'the stopped request closed by the client',
    );
  });
});
