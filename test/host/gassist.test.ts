import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, fixturePlugin, recorderPlugin, tmpDir } from '../helpers/plugins';
import { collect, expectFailure, settledPending } from '../helpers/calls';
import { useTestHost } from '../helpers/host';

const host = useTestHost();

describe('G-Assist V2 dialect', () => {
  it('initializes, announces commands without on_input, and streams an execute completed by notification', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'gassist-node'));
    const r = await collect(sup, 'count', { n: 4 });
    expect(r.outcome).toEqual({ ok: true, value: { success: true, data: 'counted to 4', keepSession: false } });
    expect(r.chunks).toEqual(['1\n', '2\n', '3\n', '4\n']);
    expect(r.events.at(-1)?.type).toBe('complete');
    const announced = sup.announcedTools?.map((t) => t.name) ?? [];
    expect(announced).toContain('count');
    expect(announced).not.toContain('on_input');
    expect(await settledPending(sup)).toBe(0);
  });

  it('runs a Python plugin from its folder with libs/ on PYTHONPATH, with context [] never null', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'gassist-python'));
    const hello = await collect(sup, 'say_hello', { name: 'Ada' });
    expect(hello.outcome).toEqual({ ok: true, value: { success: true, data: 'Hello, Ada!', keepSession: false } });
  });

  it('runs Python unbuffered: each chunk of a plugin that never flushes arrives before it writes the next', async () => {
    // The plugin writes a chunk, then waits for the file this test creates on receiving it before
    // it writes the next one, and completes with the chunks never confirmed. Block-buffered, what
    // it writes would stay in the plugin (its handshake included) and the call would fail.
    const sup = await host.addDir(path.join(FIXTURES, 'gassist-python-unflushed'));
    const acks = tmpDir('acks');
    const received: string[] = [];
    const outcome = await sup.call(
      'count_acked',
      { n: 3, ack_dir: acks },
      {
        onEvent: (e) => {
          if (e.type !== 'stream') return;
          const n = String(e.data).trim();
          received.push(n);
          writeFileSync(path.join(acks, n), '');
        },
      },
    ).done;
    expect(outcome).toEqual({ ok: true, value: { success: true, data: { unacked: [] }, keepSession: false } });
    expect(received).toEqual(['1', '2', '3']);
  });

  it('refuses a function neither the manifest declares nor the plugin announces, before the plugin sees it', async () => {
    const { dir, record } = recorderPlugin('undeclared', {});
    const sup = await host.addDir(dir);
    const f = expectFailure((await collect(sup, 'no_such_thing')).outcome);
    expect(f.code).toBe('unknown_tool');
    expect(f.message).toBe(
      'undeclared has no function "no_such_thing": its manifest declares none and it announced echo',
    );
    // The plugin got the announced one, and never the other.
    expect((await collect(sup, 'echo', { text: 'hi' })).outcome).toEqual(expect.objectContaining({ ok: true }));
    const got = readFileSync(record, 'utf8');
    expect(got).toMatch(/execute \d+ echo/);
    expect(got).not.toContain('no_such_thing');
  });

  it('reports a declared function the plugin lacks in both forms: -32601 response (Python SDK) and error notification (Node SDK)', async () => {
    // Declared in the manifest, so it is sent; the plugin has no handler for it.
    const declare = (fixture: string): string => {
      const dir = tmpDir(fixture);
      cpSync(path.join(FIXTURES, fixture), dir, { recursive: true });
      const file = path.join(dir, 'manifest.json');
      const m = JSON.parse(readFileSync(file, 'utf8')) as { functions: unknown[] };
      m.functions.push({ name: 'no_such_thing', description: 'declared, never written', properties: {} });
      writeFileSync(file, JSON.stringify(m));
      return dir;
    };
    const py = await host.addDir(declare('gassist-python'));
    const node = await host.addDir(
      fixturePlugin({
        script: 'gassist',
        manifest: { functions: [{ name: 'no_such_thing', description: 'declared, never written', properties: {} }] },
      }),
    );
    const a = expectFailure((await collect(py, 'no_such_thing')).outcome);
    const b = expectFailure((await collect(node, 'no_such_thing')).outcome);
    for (const f of [a, b]) {
      expect(f.code).toBe('plugin_error');
      expect(f.message).toMatch(/no such function.*no_such_thing/);
      expect(f.details?.rpcCode).toBe(-32601);
    }
    expect((await settledPending(py)) + (await settledPending(node))).toBe(0);
  });

  it('passes a plugin error notification on as plugin_error with its code', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist' }));
    const f = expectFailure((await collect(sup, 'fail')).outcome);
    expect(f).toEqual(expect.objectContaining({ code: 'plugin_error', message: 'API rate limit exceeded' }));
    expect(f.details).toEqual(expect.objectContaining({ rpcCode: -1, rpcMeaning: 'plugin error' }));
  });

  it('holds a passthrough session: input acked, keep_session decided per turn, ended by the plugin', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'gassist-node'));
    const passthrough: boolean[] = [];
    sup.onDidChangePassthrough((e) => passthrough.push(e.active));
    const start = await collect(sup, 'start_conversation', { topic: 'tea' });
    expect(start.outcome).toEqual({ ok: true, value: expect.objectContaining({ keepSession: true }) });
    expect(sup.inPassthrough).toBe(true);
    const events: unknown[] = [];
    const turn = await sup.input('hello there', { onEvent: (e) => events.push(e) }).done;
    expect(turn).toEqual({ ok: true, value: { success: true, data: 'hello there', keepSession: true } });
    expect(events[0]).toEqual(expect.objectContaining({ type: 'stream', data: 'you said: ' }));
    const bye = await sup.input('exit').done;
    expect(bye).toEqual({ ok: true, value: { success: true, data: 'Bye!', keepSession: false } });
    expect(sup.inPassthrough).toBe(false);
    expect(passthrough).toEqual([true, false]);
    const late = expectFailure(await sup.input('anyone?').done);
    expect(late.message).toMatch(/no passthrough session is open/);
  });

  it('keeps a non-persistent plugin alive only while its passthrough session lasts', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'gassist-python'));
    await collect(sup, 'say_hello', {});
    expect(sup.health.state).toBe('stopped');
    await collect(sup, 'start_conversation');
    expect(sup.health.state).toBe('ready');
    const pid = sup.health.pid;
    expect((await sup.input('one').done).ok).toBe(true);
    expect(sup.health.pid).toBe(pid);
    sup.endPassthrough('user pressed Exit');
    expect(sup.inPassthrough).toBe(false);
    await host.waitFor(sup.spec.id, 'stopped', 5000, host.health.length - 1);
  });

  it('fails input that is not acknowledged in time with timeout, and kills the plugin', async () => {
    const dir = fixturePlugin({
      script: 'gassist',
      manifest: { timeouts: { inputAckMs: 300, restartDelaysMs: [50] } },
    });
    const sup = await host.addDir(dir);
    await collect(sup, 'start_conversation');
    const pid = sup.health.pid;
    const f = expectFailure(await sup.input('hang').done);
    expect(f.code).toBe('timeout');
    expect(f.message).toMatch(/did not acknowledge input within 300 ms|no answer or stream chunk/);
    await host.waitFor(sup.spec.id, 'ready', 5000, host.health.length);
    expect(sup.health.pid).not.toBe(pid);
  });

  it('sends context and system_info as given, and [] / "" when there are none', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist' }));
    const bare = await collect(sup, 'context_echo');
    expect(bare.outcome.ok && bare.outcome.value.data).toEqual({ context: [], system_info: '' });
    const ctx = [{ role: 'user', content: 'hi' }];
    const full = await collect(sup, 'context_echo', {}, { context: ctx, systemInfo: 'GPU: none' });
    expect(full.outcome.ok && full.outcome.value.data).toEqual({ context: ctx, system_info: 'GPU: none' });
  });

  it('reports a plugin that speaks another protocol version as protocol_version_mismatch', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', mode: 'wrong-version' }));
    const f = expectFailure((await collect(sup, 'echo', { text: 'x' })).outcome);
    expect(f.code).toBe('protocol_version_mismatch');
    expect(f.message).toMatch(/protocol 3\.0/);
  });
});
