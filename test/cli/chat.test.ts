/**
 * `plugboard chat` as scripts run it (stdin not a terminal): the real CLI process, its bundled
 * plugins (hello, todo) and an installed MCP server, against the scripted model server in this
 * process. No language model can run on these machines, so that server plays one, over loopback
 * HTTP in OpenAI's wire format, and records what it was sent. The cases check the JSON lines
 * (kinds, fields and order), what the model was given, the exit status, and that no plugin
 * process outlives the command.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../helpers/cli';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { lastUserText, offeredTools, toolResults } from '../model-server/requests';
import { ModelServer } from '../model-server/server';
import { fail, text, toolCalls } from '../model-server/steps';
import { pbIn, pluginsOf } from './chat-helpers';

let data: string;
let model: ModelServer;
let other: ModelServer;
const pb = (...args: string[]) => pbIn(data, args);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** What hello:count and todo:add print, as their cards show it. */
const COUNTED = '1\n2\n3\nCounted to 3. 🎉';
const ADDED_MILK = 'Added #1.\n\n**Plan** · 0 of 1 done\n\n- [ ] #1 · milk';

/**
 * The lines with consecutive text pieces joined, and consecutive output pieces of one call: how
 * a stream is cut into lines depends on timing (the back end batches pieces every 16 ms).
 */
function joined(r: Run): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const l of r.lines) {
    const last = out.at(-1);
    if (last && l.type === 'text' && last.type === 'text') last.delta = `${String(last.delta)}${String(l.delta)}`;
    else if (last && l.type === 'tool_stream' && last.type === 'tool_stream' && last.id === l.id)
      last.data = `${String(last.data)}${String(l.data)}`;
    else out.push({ ...l });
  }
  return out;
}

/** Waits (briefly) until no plugin process of the data directory runs; returns those that still do. */
async function leftovers(dir = data): Promise<string[]> {
  const end = Date.now() + 3000;
  for (;;) {
    const procs = pluginsOf(dir).map((p) => p.args);
    if (procs.length === 0 || Date.now() > end) return procs;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  data = path.join(tmpDir('cli-chat'), 'data');
  model = await ModelServer.start();
  other = await ModelServer.start({ models: ['other-model'] });
  const add = await pb(
    'models',
    'add',
    'Scripted',
    '--provider',
    'openai-compatible',
    '--base-url',
    model.baseURL,
    '--model',
    'scripted-model',
  );
  expect(add.code, add.stderr).toBe(0);
});

afterAll(async () => {
  await model.close();
  await other.close();
  cleanupFixtures();
});

describe('plugboard chat', () => {
  let conversation = '';

  it('without a model exits 1 with no_model and says how to add one', async () => {
    const empty = path.join(tmpDir('cli-chat-none'), 'data');
    const json = await pbIn(empty, ['chat', 'hi', '--json']);
    expect(json.code).toBe(1);
    expect(json.lines).toEqual([
      {
        type: 'error',
        code: 'no_model',
        message: expect.stringMatching(/^no model is configured: add one with `plugboard models add NAME --provider/),
      },
    ]);
    const human = await pbIn(empty, ['chat', 'hi']);
    expect([human.code, human.stdout]).toEqual([1, '']);
    expect(human.stderr).toMatch(/^no_model: no model is configured: add one with `plugboard models add /);
    expect(model.modelCalls).toHaveLength(0);
  });

  it('answers one turn as text: the answer on stdout, the conversation’s id on stderr', async () => {
    model.script(text('Hello, ', 'Ada.'));
    const r = await pb('chat', 'Say hello to Ada');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Hello, Ada.\n');
    const id = r.stderr.match(/^conversation (\S+) \(continue it: plugboard chat --conversation (\S+)\)$/m);
    expect(id?.[1]).toMatch(UUID);
    expect(id?.[2]).toBe(id?.[1]);
    conversation = id?.[1] as string;
    expect(lastUserText(model.modelCalls.at(-1)!)).toBe('Say hello to Ada');
  });

  it('--json: text, tool calls allowed by policy and by --approve all, their output, usage, done, in order', async () => {
    model.script(
      {
        type: 'reply',
        text: ['Counting.'],
        toolCalls: [{ id: 'call_count', name: 'hello__count', arguments: { to: 3, delay_ms: 0 } }],
        usage: { input: 100, output: 5 },
      },
      {
        type: 'reply',
        toolCalls: [{ id: 'call_add', name: 'todo__add', arguments: { title: 'milk' } }],
        usage: { input: 200, output: 6 },
      },
      { type: 'reply', text: ['Done: ', 'counted and added.'], usage: { input: 300, output: 7 } },
    );
    const r = await pb('chat', 'Count to three, then add milk to the plan', '--approve', 'all', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(joined(r)).toEqual([
      { type: 'text', delta: 'Counting.' },
      { type: 'tool_call', id: 'call_count', plugin: 'hello', tool: 'count', arguments: { to: 3, delay_ms: 0 } },
      { type: 'approval', id: 'call_count', decision: 'allowed', by: 'policy' },
      { type: 'tool_stream', id: 'call_count', data: COUNTED },
      { type: 'tool_result', id: 'call_count', success: true, output: COUNTED },
      { type: 'tool_call', id: 'call_add', plugin: 'todo', tool: 'add', arguments: { title: 'milk' } },
      { type: 'approval', id: 'call_add', decision: 'allowed', by: 'flag' },
      { type: 'tool_stream', id: 'call_add', data: ADDED_MILK },
      { type: 'tool_result', id: 'call_add', success: true, output: ADDED_MILK },
      { type: 'text', delta: 'Done: counted and added.' },
      { type: 'usage', input_tokens: 600, output_tokens: 18 },
      { type: 'done', text: 'Counting.\n\nDone: counted and added.', conversation: expect.stringMatching(UUID) },
    ]);
    // The model got both results, each answering its call.
    expect(toolResults(model.modelCalls.at(-1)!).map((t) => [t.id, t.text])).toEqual([
      ['call_count', COUNTED],
      ['call_add', ADDED_MILK],
    ]);
    expect(await leftovers()).toEqual([]);
  });

  it('denies the calls that would ask without a terminal (--approve none by default), and tells the model', async () => {
    model.script(
      toolCalls({ id: 'call_denied', name: 'todo__add', arguments: { title: 'eggs' } }),
      text('I may not add it.'),
    );
    const r = await pb('chat', 'Add eggs', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(joined(r).filter((l) => l.type !== 'usage')).toEqual([
      { type: 'tool_call', id: 'call_denied', plugin: 'todo', tool: 'add', arguments: { title: 'eggs' } },
      { type: 'approval', id: 'call_denied', decision: 'denied', by: 'flag' },
      { type: 'text', delta: 'I may not add it.' },
      { type: 'done', text: 'I may not add it.', conversation: expect.stringMatching(UUID) },
    ]);
    expect(toolResults(model.modelCalls.at(-1)!)[0]).toEqual(
      expect.objectContaining({ id: 'call_denied', text: expect.stringMatching(/^the user denied this call/) }),
    );
  });

  it('shows tool calls to people as short lines on stderr, saying who decided', async () => {
    model.script(
      toolCalls(
        { name: 'hello__count', arguments: { to: 2, delay_ms: 0 } },
        { name: 'todo__add', arguments: { title: 'tea' } },
      ),
      text('Counted; tea was refused.'),
    );
    const r = await pb('chat', 'Count to two and add tea', '--approve', 'none');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Counted; tea was refused.\n');
    const lines = r.stderr.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        '→ hello:count {"to":2,"delay_ms":0}',
        "  allowed by the tool's policy",
        expect.stringMatching(/^✓ hello:count \d+ ms$/),
        '→ todo:add {"title":"tea"}',
        '  denied by --approve none',
      ]),
    );
    expect(lines.indexOf('→ hello:count {"to":2,"delay_ms":0}')).toBeLessThan(
      lines.indexOf("  allowed by the tool's policy"),
    );
  });

  it('answers a question from the model at once without a terminal: the user is not available', async () => {
    const ask = {
      id: 'call_ask',
      name: 'ask_user',
      arguments: { question: 'Which colour?', choices: ['red', 'blue'] },
    };
    model.script(toolCalls(ask), text('I will pick blue, then.'));
    const r = await pb('chat', 'Paint the fence', '--json');
    expect(r.code, r.stderr).toBe(0);
    const lines = joined(r).filter((l) => l.type !== 'usage');
    expect(lines.slice(0, 2)).toEqual([
      { type: 'tool_call', id: 'call_ask', plugin: 'assistant', tool: 'ask_user', arguments: ask.arguments },
      { type: 'approval', id: 'call_ask', decision: 'allowed', by: 'policy' },
    ]);
    expect(lines.find((l) => l.type === 'tool_result')).toEqual({
      type: 'tool_result',
      id: 'call_ask',
      success: true,
      output: expect.stringMatching(/^The user is not available to answer/),
    });
    expect(lines.at(-1)).toEqual({
      type: 'done',
      text: 'I will pick blue, then.',
      conversation: expect.stringMatching(UUID),
    });
    // The model was told, and went on: the question did not hold the turn.
    expect(toolResults(model.modelCalls.at(-1)!)[0]).toEqual(
      expect.objectContaining({ id: 'call_ask', text: expect.stringMatching(/^The user is not available to answer/) }),
    );
    // People see the question and that nobody answered it.
    model.script(toolCalls({ ...ask, id: 'call_ask2' }), text('Blue.'));
    const human = await pb('chat', 'Paint the gate');
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr.split('\n')).toEqual(
      expect.arrayContaining([
        '? Which colour? (red / blue)',
        '  not answered: nobody is at a terminal here, and the model was told the user is not available',
      ]),
    );
  });

  it('tells people the tokens a turn took, marked when the server gave no counts', async () => {
    model.script({ type: 'reply', text: ['Counted.'], usage: { input: 1200, output: 34 } });
    const counted = await pb('chat', 'Hi');
    expect(counted.stderr.split('\n')).toContain('tokens: 1,200 in, 34 out');
    model.script({ type: 'reply', text: ['Guessed.'], noUsage: true });
    const guessed = await pb('chat', 'Hi');
    expect(guessed.stderr).toMatch(/^tokens: [\d,]+ in, \d+ out \(estimated: the server gave no counts\)$/m);
    // --json keeps the documented fields only.
    model.script({ type: 'reply', text: ['Guessed.'], noUsage: true });
    const json = await pb('chat', 'Hi', '--json');
    expect(json.lines.at(-2)).toEqual({
      type: 'usage',
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
    });
  });

  it('--conversation continues one: the model receives the earlier messages', async () => {
    model.script(text('Still Ada.'));
    const r = await pb('chat', 'Who did you greet?', '--conversation', conversation, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines.at(-1)).toEqual({ type: 'done', text: 'Still Ada.', conversation });
    const sent = (
      model.modelCalls.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> }
    ).messages.filter((m) => m.role !== 'system');
    expect(sent.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Say hello to Ada'],
      ['assistant', 'Hello, Ada.'],
      ['user', 'Who did you greet?'],
    ]);
  });

  it('--model sets the conversation’s model, which it keeps when continued', async () => {
    const add = await pb(
      'models',
      'add',
      'Other',
      '--provider',
      'openai-compatible',
      '--base-url',
      other.baseURL,
      '--model',
      'other-model',
    );
    expect(add.code, add.stderr).toBe(0);
    other.script(text('From the other model.'), text('Again from it.'));
    const first = await pb('chat', 'Which model?', '--model', 'Other', '--json');
    expect(first.code, first.stderr).toBe(0);
    const id = first.lines.at(-1)?.conversation as string;
    const again = await pb('chat', 'And now?', '--conversation', id, '--json');
    expect(again.lines.at(-1)).toEqual({ type: 'done', text: 'Again from it.', conversation: id });
    expect(other.modelCalls.map((c) => (c.body as { model: string }).model)).toEqual(['other-model', 'other-model']);
  });

  it('exits 1 with the error as the last line: a refused key, an unknown model or conversation', async () => {
    model.script(fail('unauthorized'));
    const refused = await pb('chat', 'hi', '--json');
    expect(refused.code).toBe(1);
    expect(refused.lines.at(-1)).toEqual({
      type: 'error',
      code: 'model_refused',
      message: expect.stringMatching(/refused the API key \(401\)/),
    });
    const human = await pb('chat', 'hi', '--model', 'Nobody');
    expect([human.code, human.stdout]).toEqual([1, '']);
    expect(human.stderr).toMatch(/^no_model: no model is named "Nobody" \(configured: Scripted, Other\)/);
    const lost = await pb('chat', 'hi', '--conversation', 'no-such-conversation', '--json');
    expect([lost.code, lost.lines]).toEqual([
      1,
      [
        {
          type: 'error',
          code: 'not_found',
          message: expect.stringMatching(/^no conversation no-such-conversation in /),
        },
      ],
    ]);
  });

  it('has help: both commands are listed, each with its options', async () => {
    const main = await pb('--help');
    expect(main.stdout).toMatch(/\n {2}chat +talk to the assistant/);
    expect(main.stdout).toMatch(/\n {2}models +add, list, test and remove the models/);
    const chat = await pb('chat', '--help');
    expect([chat.code, chat.stdout]).toEqual([
      0,
      expect.stringMatching(/^Usage: plugboard chat \[MESSAGE\] \[options\][^]*--conversation ID[^]*--approve MODE/),
    ]);
    // What happens to the model's questions where nobody can answer is said before it happens.
    expect(chat.stdout).toContain('the model is told at once that the user is not available');
    const models = await pb('models', '--help');
    expect([models.code, models.stdout]).toEqual([
      0,
      expect.stringMatching(/^Usage: plugboard models <command>[^]*--api-key-env VAR/),
    ]);
  });

  it('exits 2 on usage errors, naming what was wrong', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['chat', 'hi', '--approve', 'maybe'], /--approve must be ask, all or none, got "maybe"/],
      [['chat', 'hi', '--approve', 'ask'], /--approve ask needs a terminal to answer on, and stdin is not one/],
      [['chat'], /missing MESSAGE: without one, plugboard chat holds a session, which needs a terminal/],
      [['chat', 'hi', 'there'], /unexpected argument "there"/],
      [['chat', ' '], /MESSAGE is empty/],
      [['chat', 'hi', '--temperature', '2'], /Unknown option '--temperature'/],
    ];
    for (const [args, message] of cases) {
      const r = await pb(...args);
      expect([r.code, r.stderr], args.join(' ')).toEqual([2, expect.stringMatching(message)]);
    }
  });

  it('offers the tools of a server that announces them only once running, and stops it before exiting', async () => {
    expect((await pb('plugins', 'install', path.join(FIXTURES, 'mcp-dynamic'))).code).toBe(0);
    model.script(toolCalls({ id: 'call_list', name: 'mcp_dynamic__list_added', arguments: {} }), text('Nothing yet.'));
    const r = await pb('chat', 'What was added?', '--approve', 'all', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(offeredTools(model.modelCalls.at(-2)!).map((t) => t.name)).toEqual(
      expect.arrayContaining(['mcp_dynamic__list_added', 'hello__count']),
    );
    expect(joined(r).slice(0, 2)).toEqual([
      { type: 'tool_call', id: 'call_list', plugin: 'mcp-dynamic', tool: 'list_added', arguments: {} },
      // Read-only by its own MCP annotations: a hint, not a grant; --approve all answers it.
      { type: 'approval', id: 'call_list', decision: 'allowed', by: 'flag' },
    ]);
    expect(r.lines).toContainEqual({ type: 'tool_result', id: 'call_list', success: true, output: 'none yet' });
    expect(await leftovers()).toEqual([]);
  });
});
