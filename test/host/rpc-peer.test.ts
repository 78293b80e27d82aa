import { describe, expect, it } from 'vitest';
import { CancelSource } from '../../src/shared/cancel';
import { RpcPeer, type RpcHandlers, type RpcId, type RpcOutcome } from '../../src/main/host/rpc/peer';

interface Wire {
  peer: RpcPeer;
  sent: unknown[];
  notifications: Array<[string, unknown]>;
  strays: Array<[RpcId | null, RpcOutcome, string]>;
  invalid: string[];
}

function wire(overrides: Partial<RpcHandlers> = {}): Wire {
  const w = {
    sent: [] as unknown[],
    notifications: [] as Array<[string, unknown]>,
    strays: [] as Wire['strays'],
    invalid: [] as string[],
  } as Wire;
  w.peer = new RpcPeer((m) => w.sent.push(m), {
    notification: (m, p) => w.notifications.push([m, p]),
    stray: (id, o, why) => w.strays.push([id, o, why]),
    invalid: (_v, why) => w.invalid.push(why),
    ...overrides,
  });
  return w;
}

describe('JSON-RPC peer', () => {
  it('correlates responses to requests by id and resolves with the result', async () => {
    const w = wire();
    const a = w.peer.request('a', { x: 1 });
    const b = w.peer.request('b', {});
    expect(w.sent).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'a', params: { x: 1 } },
      { jsonrpc: '2.0', id: 2, method: 'b', params: {} },
    ]);
    w.peer.receive({ jsonrpc: '2.0', id: 2, result: 'B' });
    w.peer.receive({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'nope', data: { type: 'TIMEOUT' } } });
    expect(await b.outcome).toEqual({ type: 'result', value: 'B' });
    expect(await a.outcome).toEqual({
      type: 'error',
      error: { code: -32000, message: 'nope', data: { type: 'TIMEOUT' } },
    });
    expect(w.peer.pendingCount).toBe(0);
  });

  it('matches ids exactly: a string "1" is not the number 1', async () => {
    const w = wire();
    const a = w.peer.request('a', {}, { timeoutMs: 50 });
    w.peer.receive({ jsonrpc: '2.0', id: '1', result: 'wrong type' });
    expect(w.strays.map((s) => s[0])).toEqual(['1']);
    expect(await a.outcome).toEqual({ type: 'timeout' });
  });

  it('echoes string and number ids of incoming requests exactly, and answers -32601 by default', () => {
    const w = wire({ request: (method) => (method === 'known' ? { result: 42 } : undefined) });
    w.peer.receive({ jsonrpc: '2.0', id: 'abc-1', method: 'known' });
    w.peer.receive({ jsonrpc: '2.0', id: 7, method: 'unknown' });
    expect(w.sent).toEqual([
      { jsonrpc: '2.0', id: 'abc-1', result: 42 },
      { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found: unknown' } },
    ]);
  });

  it('surfaces an error with id null instead of dropping it', () => {
    const w = wire();
    w.peer.receive({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    expect(w.strays).toHaveLength(1);
    expect(w.strays[0]?.[0]).toBeNull();
    expect(w.strays[0]?.[1]).toEqual({ type: 'error', error: { code: -32700, message: 'Parse error' } });
  });

  it('ignores unknown top-level members (planner auth)', async () => {
    const w = wire();
    const a = w.peer.request('execute_task', {});
    w.peer.receive({ jsonrpc: '2.0', id: 1, result: 'ok', auth: { timestamp: 1, signature: 'x' }, extra: true });
    w.peer.receive({ jsonrpc: '2.0', method: 'note', params: 1, auth: {} });
    expect(await a.outcome).toEqual({ type: 'result', value: 'ok' });
    expect(w.notifications).toEqual([['note', 1]]);
  });

  it('reports a duplicate response as a stray and keeps the first', async () => {
    const w = wire();
    const a = w.peer.request('a', {});
    w.peer.receive({ jsonrpc: '2.0', id: 1, result: 'first' });
    w.peer.receive({ jsonrpc: '2.0', id: 1, result: 'second' });
    expect(await a.outcome).toEqual({ type: 'result', value: 'first' });
    expect(w.strays.map((s) => s[2])).toEqual(['no request is waiting for id 1']);
  });

  it('sends a batch as one array and resolves each entry from a batch of answers in any order', async () => {
    const w = wire();
    const [x, y] = w.peer.batch([
      { method: 'execute_task', params: { p: 1 } },
      { method: 'log', params: 'hi', notification: true },
      { method: 'validate_code', params: { code: '' } },
    ]);
    expect(w.sent).toEqual([
      [
        { jsonrpc: '2.0', id: 1, method: 'execute_task', params: { p: 1 } },
        { jsonrpc: '2.0', method: 'log', params: 'hi' },
        { jsonrpc: '2.0', id: 2, method: 'validate_code', params: { code: '' } },
      ],
    ]);
    w.peer.receive([
      { jsonrpc: '2.0', id: 2, result: 'valid' },
      { jsonrpc: '2.0', id: 1, result: 'done' },
    ]);
    expect(await x?.outcome).toEqual({ type: 'result', value: 'done' });
    expect(await y?.outcome).toEqual({ type: 'result', value: 'valid' });
  });

  it('answers an incoming batch of requests with one array', () => {
    const w = wire({ request: (m) => ({ result: m.toUpperCase() }) });
    w.peer.receive([
      { jsonrpc: '2.0', id: 1, method: 'a' },
      { jsonrpc: '2.0', method: 'note' },
      { jsonrpc: '2.0', id: 'two', method: 'b' },
    ]);
    expect(w.sent).toEqual([
      [
        { jsonrpc: '2.0', id: 1, result: 'A' },
        { jsonrpc: '2.0', id: 'two', result: 'B' },
      ],
    ]);
    expect(w.notifications).toEqual([['note', undefined]]);
  });

  it('reports values that are not JSON-RPC as invalid', () => {
    const w = wire();
    w.peer.receive(42);
    w.peer.receive([]);
    w.peer.receive({ hello: 'world' });
    expect(w.invalid).toHaveLength(3);
  });

  it('leaves no pending entry after 10,000 requests of every kind', async () => {
    const w = wire();
    const n = 10_000;
    const outcomes: Promise<RpcOutcome>[] = [];
    // answered
    for (let i = 0; i < n; i++) {
      const r = w.peer.request('echo', i);
      w.peer.receive({ jsonrpc: '2.0', id: r.id, result: i });
      outcomes.push(r.outcome);
    }
    // completed another way (G-Assist complete notification): settled
    for (let i = 0; i < n; i++) {
      const r = w.peer.request('execute', {});
      r.settle();
      outcomes.push(r.outcome);
    }
    // aborted
    for (let i = 0; i < n; i++) {
      const cancel = new CancelSource();
      const r = w.peer.request('execute', {}, { cancel });
      cancel.cancel('stop');
      outcomes.push(r.outcome);
    }
    // timed out
    for (let i = 0; i < n; i++) outcomes.push(w.peer.request('slow', {}, { timeoutMs: 1 }).outcome);
    const results = await Promise.all(outcomes);
    expect(results.filter((o) => o.type === 'result')).toHaveLength(n);
    expect(results.filter((o) => o.type === 'settled')).toHaveLength(n);
    expect(results.filter((o) => o.type === 'aborted')).toHaveLength(n);
    expect(results.filter((o) => o.type === 'timeout')).toHaveLength(n);
    expect(w.peer.pendingCount).toBe(0);
    // closed (the plugin crashed with requests in flight)
    const inflight = Array.from({ length: n }, () => w.peer.request('execute', {}).outcome);
    expect(w.peer.pendingCount).toBe(n);
    w.peer.close('crashed');
    expect((await Promise.all(inflight)).every((o) => o.type === 'closed')).toBe(true);
    expect(w.peer.pendingCount).toBe(0);
    expect(await w.peer.request('after', {}).outcome).toEqual({ type: 'closed', reason: 'crashed' });
    expect(w.peer.pendingCount).toBe(0);
  });
});
