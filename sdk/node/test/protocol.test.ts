/**
 * The SDK through the real wire protocol: test/fixtures/demo-plugin.mjs (built on dist/) runs as
 * a child process and is spoken to in raw length-prefixed frames.
 * Build first: npx tsc -p sdk/node/tsconfig.json
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PluginClient } from '../src/testing.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.join(HERE, 'fixtures', 'demo-plugin.mjs');
const DIST = path.join(HERE, '..', 'dist', 'index.js');

const started: PluginClient[] = [];

function start(env: Record<string, string> = {}): PluginClient {
  const p = PluginClient.start(process.execPath, [FIXTURE], { env: { ...process.env, ...env } });
  started.push(p);
  return p;
}

async function ready(env: Record<string, string> = {}): Promise<PluginClient> {
  const p = start(env);
  await p.initialize();
  return p;
}

beforeAll(() => {
  if (!existsSync(DIST)) throw new Error(`${DIST} is missing: build the SDK first (npx tsc -p sdk/node/tsconfig.json)`);
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop()));
});

describe('handshake and health', () => {
  it('describes itself and its commands in initialize, on_input included', async () => {
    const p = start();
    const result = await p.initialize();
    expect(result).toMatchObject({
      name: 'demo',
      version: '1.2.3',
      description: 'Exercises the SDK',
      protocol_version: '2.0',
    });
    const commands = result.commands as Array<{ name: string; description: string }>;
    expect(commands.find((c) => c.name === 'greet')).toEqual({ name: 'greet', description: 'Greets someone.' });
    expect(commands.map((c) => c.name)).toContain('on_input');
    for (const c of commands) expect(Object.keys(c).sort()).toEqual(['description', 'name']);
  });

  it('announces on_input only when an input handler exists', async () => {
    const p = start({ DEMO_NO_ON_INPUT: '1' });
    const names = ((await p.initialize()).commands as Array<{ name: string }>).map((c) => c.name);
    expect(names).toContain('greet');
    expect(names).not.toContain('on_input');
  });

  it('echoes the timestamp of a ping', async () => {
    const p = await ready();
    const id = p.request('ping', { timestamp: 1234567890 });
    expect((await p.response(id)).result).toEqual({ timestamp: 1234567890 });
  });

  it('answers a ping at once while a command runs', async () => {
    const p = await ready();
    const slow = p.execute('slow', { ms: 1500 });
    await p.next((m) => m.method === 'stream', 5000, 'the first chunk of slow');
    const ping = p.request('ping', { timestamp: 7 });
    // Order, not time: the pong arrives before the running command completes.
    const first = await p.next(
      (m) => (m.id === ping && m.method === undefined) || m.method === 'complete',
      10_000,
      'the pong or the completion',
    );
    expect(first).toEqual(expect.objectContaining({ id: ping, result: { timestamp: 7 } }));
    expect((await p.turn(slow)).complete?.data).toBe('slept');
  });

  it('answers an unknown method with -32601 and ignores unknown notifications', async () => {
    const p = await ready();
    p.notify('something_new', { x: 1 });
    const id = p.request('frobnicate');
    expect((await p.response(id)).error).toMatchObject({
      code: -32601,
      message: expect.stringContaining('frobnicate'),
    });
    expect(p.unread).toEqual([]);
  });
});

describe('execute', () => {
  it('streams, then completes with the request id and no response', async () => {
    const p = await ready();
    const turn = await p.call('count', { n: 3 });
    expect(turn.streams).toEqual(['1\n', '2\n', '3\n']);
    expect(turn.end).toEqual({
      jsonrpc: '2.0',
      method: 'complete',
      params: { request_id: turn.requestId, success: true, data: 'counted to 3', keep_session: false },
    });
  });

  it('passes the arguments and sends an empty string for a handler that returns nothing', async () => {
    const p = await ready();
    expect((await p.call('greet', { name: 'Ada' })).complete?.data).toBe('Hello, Ada!');
    expect((await p.call('greet')).complete?.data).toBe('Hello, World!');
    expect((await p.call('nothing')).complete).toEqual({ success: true, data: '', keep_session: false });
  });

  it('reports an unknown function as an error notification with -32601 (the Node SDK way)', async () => {
    const p = await ready();
    const turn = await p.call('nope');
    expect(turn.error).toEqual({ code: -32601, message: 'Unknown command: nope', via: 'notification' });
  });

  it('turns a thrown error into an error notification with code -1 and keeps serving', async () => {
    const p = await ready();
    const turn = await p.call('boom');
    expect(turn.streams).toEqual([]);
    expect(turn.end.params).toEqual({ request_id: turn.requestId, code: -1, message: 'kaboom' });
    // stderr is its own pipe: it may land a moment after the notification.
    await vi.waitFor(() => expect(p.stderr).toContain('Error: kaboom'), { timeout: 3000 });
    expect((await p.call('greet', { name: 'again' })).complete?.data).toBe('Hello, again!');
  });

  it('sends the code and data of a PluginError', async () => {
    const p = await ready();
    const turn = await p.call('refuse');
    expect(turn.error).toEqual({ code: -3, message: 'rate limited', data: { retry_after_s: 5 }, via: 'notification' });
  });

  it('reports a result past the 10 MiB frame cap as an error instead of sending it', async () => {
    const p = await ready();
    const turn = await p.call('too_big', {}, { timeoutMs: 10_000 });
    expect(turn.error?.code).toBe(-1);
    expect(turn.error?.message).toMatch(/cannot be sent: .*10485760-byte cap/);
  });

  it('gives the handler the chat context and the system info', async () => {
    const p = await ready();
    const context = [
      { role: 'user', content: 'What GPU do I have?' },
      { role: 'assistant', content: 'Let me check.' },
      { role: 'user', content: 'Thanks' },
    ];
    const turn = await p.call('inspect_context', {}, { context, systemInfo: 'RTX 4090, 64 GB' });
    expect(turn.complete?.data).toEqual({
      roles: ['user', 'assistant', 'user'],
      last: 'Thanks',
      systemInfo: 'RTX 4090, 64 GB',
    });
  });

  it('sends stray console.log and stdout writes to stderr, keeping stdout for frames', async () => {
    const p = await ready();
    expect((await p.call('noisy')).complete?.data).toBe('still framed');
    const ping = p.request('ping', { timestamp: 2 });
    expect((await p.response(ping)).result).toEqual({ timestamp: 2 });
    await vi.waitFor(
      () => {
        expect(p.stderr).toContain('a stray console.log must not reach stdout');
        expect(p.stderr).toContain('nor a raw process.stdout.write');
      },
      { timeout: 3000 },
    );
  });
});

describe('passthrough', () => {
  it('acknowledges input, then completes it with the keep_session the handler chose', async () => {
    const p = await ready();
    const opened = await p.call('start_chat', { topic: 'GPUs' });
    expect(opened.complete).toEqual({ success: true, data: 'chatting about GPUs', keep_session: true });

    const hello = await p.input('hello there');
    expect(hello.ack.result).toEqual({ acknowledged: true });
    expect(hello.turn.end.params).toEqual({
      request_id: hello.turn.requestId,
      success: true,
      data: 'echo: hello there',
      keep_session: true,
    });

    const bye = await p.input('exit');
    expect(bye.ack.result).toEqual({ acknowledged: true });
    expect(bye.turn.complete).toEqual({ success: true, data: 'bye', keep_session: false });
  });

  it('echoes input and ends the session when there is no input handler', async () => {
    const p = await ready({ DEMO_NO_ON_INPUT: '1' });
    const { ack, turn } = await p.input('hello');
    expect(ack.result).toEqual({ acknowledged: true });
    expect(turn.complete).toEqual({ success: true, data: 'Received: hello', keep_session: false });
  });

  it('decides keep_session anew on every turn', async () => {
    const p = await ready();
    expect((await p.call('start_chat')).complete?.keep_session).toBe(true);
    expect((await p.call('plain')).complete?.keep_session).toBe(false);
  });
});

describe('stopping', () => {
  it('exits 0 soon after a shutdown notification, sending nothing for it', async () => {
    const p = await ready();
    const sent = Date.now();
    p.notify('shutdown');
    expect(await p.exited(3000)).toEqual({ code: 0, signal: null });
    expect(Date.now() - sent).toBeLessThan(3000);
    expect(p.unread).toEqual([]);
    expect(p.stderr).toContain('shutdown hook ran');
  });

  it('aborts ctx.signal on shutdown so a running command can finish', async () => {
    const p = await ready();
    const id = p.execute('until_shutdown');
    await p.next((m) => m.method === 'stream', 5000, 'the first chunk');
    p.notify('shutdown');
    const turn = await p.turn(id, 3000);
    expect(turn.complete?.data).toBe('stopped by shutdown');
    expect((await p.exited(3000)).code).toBe(0);
  });

  it('exits 0 when stdin ends', async () => {
    const p = await ready();
    p.child.stdin.end();
    expect(await p.exited(3000)).toEqual({ code: 0, signal: null });
  });

  it('exits 0 on SIGTERM after running its shutdown hooks', async () => {
    const p = await ready();
    p.child.kill('SIGTERM');
    expect(await p.exited(3000)).toEqual({ code: 0, signal: null });
    expect(p.stderr).toContain('shutdown hook ran');
  });

  it('exits non-zero, without hanging, when a frame announces 0xFFFFFFFF bytes', async () => {
    const p = await ready();
    const sent = Date.now();
    p.writeRaw(Buffer.from([0xff, 0xff, 0xff, 0xff]));
    const exit = await p.exited(4000);
    expect(exit.code).not.toBe(0);
    expect(Date.now() - sent).toBeLessThan(4000);
    expect(p.stderr).toContain('4294967295 bytes, past the 10485760-byte cap');
  });
});
