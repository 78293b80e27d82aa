/**
 * Both protocol eras, one suite of calls: the same server built on today's v1 SDK (the
 * 2025-11-25 revision) and on the v2 SDK (the 2026-07-28 revision, stateless), over stdio and over
 * Streamable HTTP (test/fixtures/eras), each a real process. Plugboard's client (the SDK's v2
 * client, mcp.ts) finds the era itself; every call must come out the same either way: text,
 * progress, an error result, a form the person fills (an elicitation request of a 2025 server,
 * an "input required" result of a 2026 server), a page the person agrees to open (URL mode),
 * cancellation that reaches the server, structured output, prompts and resources, and a task
 * (2025-11-25 tasks, or the 2026 tasks extension) followed to its end, or cancelled on the server.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ElicitRequest } from '../../src/main/host/asks';
import { collect, specOf } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { startListening } from '../helpers/mcp-http';
import { FIXTURES, tmpDir } from '../helpers/plugins';

const host = useTestHost();
afterEach(() => (host.asks = undefined));

interface Target {
  name: string;
  sdk: 'v1' | 'v2';
  transport: 'stdio' | 'http';
  /** The revision Plugboard should land on. */
  protocol: string;
}

const TARGETS: Target[] = [
  { name: 'v1 SDK over stdio', sdk: 'v1', transport: 'stdio', protocol: '2025-11-25' },
  { name: 'v2 SDK over stdio', sdk: 'v2', transport: 'stdio', protocol: '2026-07-28' },
  { name: 'v1 SDK over Streamable HTTP', sdk: 'v1', transport: 'http', protocol: '2025-11-25' },
  { name: 'v2 SDK over Streamable HTTP (stateless)', sdk: 'v2', transport: 'http', protocol: '2026-07-28' },
];

const servers: ChildProcess[] = [];
afterAll(() => {
  for (const s of servers) s.kill('SIGKILL');
});

async function startHttp(script: string, record: string): Promise<string> {
  const s = await startListening(script, ['--http', '--record', record]);
  servers.push(s.proc);
  return s.url;
}

/** Adds the target's server as plugin `eras`; answers with its record file. */
async function addTarget(t: Target): Promise<{ id: string; record: string }> {
  const dir = tmpDir(`eras-${t.sdk}-${t.transport}`);
  const record = path.join(dir, 'record.txt');
  const script = path.join(FIXTURES, 'eras', `${t.sdk}-server.mjs`);
  // Generous deadlines: the v2 server takes its time to load on a busy machine, and a server
  // silent past the probe's share of the handshake is taken for a 2025 one.
  const timeouts = { handshakeMs: 30_000, launchMs: 10_000 };
  const manifest =
    t.transport === 'stdio'
      ? {
          id: 'eras',
          name: 'eras',
          version: '1.0.0',
          protocol: 'mcp',
          command: ['node', script, '--record', record],
          timeouts,
        }
      : { id: 'eras', name: 'eras', version: '1.0.0', protocol: 'mcp', url: await startHttp(script, record), timeouts };
  writeFileSync(path.join(dir, 'plugboard.json'), JSON.stringify(manifest));
  const spec = specOf(dir);
  await host.add(spec, { binding: await host.bindingFor(spec) });
  return { id: 'eras', record };
}

function textOf(r: Awaited<ReturnType<typeof collect>>): unknown {
  if (!r.outcome.ok) throw new Error(`the call failed: ${r.outcome.code}: ${r.outcome.message}`);
  return r.outcome.value.data;
}

async function recorded(file: string, line: string): Promise<void> {
  const end = Date.now() + 15_000;
  while (!(existsSync(file) && readFileSync(file, 'utf8').split('\n').includes(line))) {
    if (Date.now() > end) throw new Error(`the server never recorded "${line}"`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(TARGETS)('the same calls against a server built on the $name', (t) => {
  it(`lands on ${t.protocol} and answers text, progress, errors, structured output, prompts and resources`, async () => {
    const { id } = await addTarget(t);
    const sup = host.get(id)!;
    expect((await sup.start()).ok).toBe(true);
    expect(host.logs.some((l) => l.pluginId === id && l.message.startsWith(`MCP ${t.protocol}`))).toBe(true);
    expect(sup.tools.map((x) => x.name).sort()).toEqual([
      'ask',
      'double',
      'echo',
      'fail',
      'open_page',
      'progress',
      'research',
      'slow',
    ]);

    expect(textOf(await collect(sup, 'echo', { text: 'same either way' }))).toBe('same either way');

    const p = await collect(sup, 'progress', { steps: 3 });
    expect(textOf(p)).toBe('did 3 steps');
    // Each progress message is a line of its own (issue 21: never glued together).
    expect(p.chunks).toEqual(['step 1 of 3\n', 'step 2 of 3\n', 'step 3 of 3\n']);

    const fail = await collect(sup, 'fail');
    expect(fail.outcome).toMatchObject({ ok: false, code: 'plugin_error', message: 'the tool could not do it' });

    const d = await collect(sup, 'double', { n: 21 });
    expect(d.outcome.ok && d.outcome.value.data).toEqual({ double: 42 });

    const f = host.features(id)!;
    expect(await f.prompts()).toMatchObject({ ok: true, value: [{ name: 'greet' }] });
    expect(await f.getPrompt('greet', { name: 'Ada' })).toMatchObject({
      ok: true,
      value: { text: 'Say hello to Ada.' },
    });
    expect(await f.resources()).toMatchObject({ ok: true, value: [{ uri: 'notes://today' }] });
  });

  it('shows the same form for a question, whether asked by request or as an input-required result', async () => {
    const { id } = await addTarget(t);
    const asked: ElicitRequest[] = [];
    host.asks = {
      elicit: async (req) => {
        asked.push(req);
        return { action: 'accept', content: { name: 'Ada' } };
      },
      sample: async () => ({ ok: false, code: 'cancelled', message: 'no' }),
    };
    expect(textOf(await collect(host.get(id)!, 'ask'))).toBe('hello Ada');
    expect(asked.map((a) => ({ message: a.message, schema: a.schema, url: a.url }))).toEqual([
      {
        message: 'What is your name?',
        schema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] },
        url: undefined,
      },
    ]);

    // Declined: the server hears it either way.
    host.asks = { ...host.asks, elicit: async () => ({ action: 'decline' }) };
    expect(textOf(await collect(host.get(id)!, 'ask'))).toBe('no name (decline)');
  });

  it('asks the person before a URL-mode question opens a page, and tells the server what they chose', async () => {
    const { id } = await addTarget(t);
    const asked: ElicitRequest[] = [];
    host.asks = {
      elicit: async (req) => {
        asked.push(req);
        return { action: 'accept', content: {} };
      },
      sample: async () => ({ ok: false, code: 'cancelled', message: 'no' }),
    };
    expect(textOf(await collect(host.get(id)!, 'open_page'))).toBe('page: accept');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      message: 'Connect your account at the example site',
      url: 'https://accounts.example.com/connect?session=42',
    });
    host.asks = { ...host.asks, elicit: async () => ({ action: 'decline' }) };
    expect(textOf(await collect(host.get(id)!, 'open_page'))).toBe('page: decline');
  });

  it('follows a task to its result, its status on the card, and cancels it on the server', async () => {
    const { id, record } = await addTarget(t);
    const sup = host.get(id)!;
    const done = await collect(sup, 'research', { topic: 'eras' });
    expect(textOf(done)).toBe('a report on eras');
    expect(done.chunks).toEqual(['step 1 of 3\n', 'step 2 of 3\n', 'step 3 of 3\n']);

    // Stopped once the server has reported on it: tasks/cancel reaches the server.
    let reported!: () => void;
    const running = new Promise<void>((r) => (reported = r));
    const handle = sup.call('research', { topic: 'forever' }, { onEvent: (e) => e.type === 'stream' && reported() });
    await running;
    handle.cancel('the person pressed Stop');
    expect(await handle.done).toMatchObject({ ok: false, code: 'cancelled' });
    await recorded(record, 'cancelled task');
  });

  it('stops the server’s work when the call is cancelled', async () => {
    const { id, record } = await addTarget(t);
    const sup = host.get(id)!;
    expect((await sup.start()).ok).toBe(true);
    const handle = sup.call('slow', { ms: 60_000 });
    await recorded(record, 'started slow 60000');
    handle.cancel('the person pressed Stop');
    expect(await handle.done).toMatchObject({ ok: false, code: 'cancelled' });
    await recorded(record, 'cancelled slow 60000');
  });
});
