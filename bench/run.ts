/**
 * `npm run bench`: every speed target of the plugin host, measured in one run against baselines
 * measured in the same run (the machines are shared and noisy; only ratios mean something).
 *
 *   round trips   raw NDJSON echo between two Node processes (the floor); the host's call to an
 *                 equivalent echo plugin in each dialect, also against a raw client talking to
 *                 that same plugin; the MCP SDK's own stdio clients against the same MCP server
 *                 (the v2 client the host is built on, and the v1 client it used before). The host's
 *                 contenders run unsandboxed, as the raw ones do; one more runs sandboxed as the app
 *                 runs plugins (bwrap, and the limits this machine holds), to show what that adds.
 *   streams       chunks/s and MB/s, raw against through the host, 64 B and 4 KiB chunks
 *   watchdog      a plugin frozen while idle (SIGSTOP at a random moment) until it is killed
 *   crashes       SIGKILL until the host notices, and until the plugin is ready again
 *   assistant     a model's tool call to its result back at the model, against a direct call of
 *                 the same tool; opening a conversation of 1,000 messages (bench/assistant.ts)
 *   mcp-server    a tool call through `plugboard mcp` (the MCP SDK's client), against the same
 *                 call through `plugboard call`'s running host: the MCP layer's cost (bench/mcp-server.ts)
 *   CLI           `plugboard --help` from spawn to exit, against `node -e ''`
 *   store         conversation writes and HTTP latency while chatting, against the sql.js store
 *                 it replaced (bench/store.ts)
 *   npx-start     an installed npx server's start, against `node <entry>` by hand and against
 *                 `npx -y` downloading it at start (bench/npx-start.ts)
 *   sandbox       a launch unsandboxed, sandboxed, and sandboxed with limits; a tool round trip
 *                 with and without limits (bench/sandbox.ts)
 *
 * Options: --quick (fewer iterations), --json FILE (write the figures), --only NAME[,NAME]
 * (the sections named above: round-trips, streams, watchdog, crashes, store, assistant, mcp-server, cli,
 * npx-start, sandbox).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { PluginHost } from '../src/main/host/host';
import { loadManifest } from '../src/main/plugins/manifests';
import type { PluginSupervisor } from '../src/main/host/supervisor/supervisor';
import { sandboxSupport } from '../src/main/host/process/sandbox-probe';
import type { HealthState, PluginSpec } from '../src/shared/plugin';
import { median, percentile } from '../src/shared/stats';
import { cliColdStart } from './lib/cold-start';
import { RawClient } from './lib/raw-client';
import { Report } from './lib/report';
import { assistantBench } from './assistant';
import { mcpServerBench } from './mcp-server';
import { npxStartBench } from './npx-start';
import { sandboxBench } from './sandbox';
import { storeBench } from './store';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIX = path.join(ROOT, 'test', 'fixtures');
const quick = process.argv.includes('--quick');
const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : undefined;
const WARM = quick ? 100 : 500;
const only = process.argv.includes('--only')
  ? new Set(process.argv[process.argv.indexOf('--only') + 1]?.split(','))
  : null;

const report = new Report();
const host = new PluginHost();
/** Adds a plugin to the bench's host, launched as its manifest says (no settings, its own capabilities). */
const add = async (spec: PluginSpec): Promise<PluginSupervisor> =>
  host.add(spec, { binding: { plan: await host.plan(spec, {}, {}), allowedCapabilities: spec.capabilities } });

async function samples(n: number, warm: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warm; i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn(i);
    out.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  return out;
}

function spec(dir: string, patch: Partial<PluginSpec> = {}): PluginSpec {
  const m = loadManifest(dir);
  if (!m.ok) throw new Error(m.errors.join('\n'));
  return { ...m.spec, ...patch, id: patch.id ?? m.spec.id };
}

/** A fixture script from test/fixtures/lib run as a plugin of the given dialect, in place. */
function libSpec(script: 'gassist' | 'jsonrpc', id: string, patch: Partial<PluginSpec> = {}): PluginSpec {
  const base = spec(path.join(FIX, 'planner-executor'));
  return {
    ...base,
    id,
    name: id,
    dialect: script === 'gassist' ? 'gassist-v2' : 'jsonrpc',
    framing: script === 'gassist' ? 'length-prefixed' : 'ndjson',
    dir: path.join(FIX, 'lib'),
    cwd: path.join(FIX, 'lib'),
    command: ['node', `${script}.mjs`],
    tools: [],
    rpcFlavor: 'generic',
    ...patch,
  };
}

async function hostCall(sup: PluginSupervisor, tool: string, args: Record<string, unknown>): Promise<void> {
  const o = await sup.call(tool, args).done;
  if (!o.ok) throw new Error(`${sup.spec.id} ${tool}: ${o.code} ${o.message}`);
}

interface Contender {
  name: string;
  /** Starts the contender's processes; resolves with its call and its teardown. */
  open(): Promise<{ call(): Promise<unknown>; close(): Promise<void> }>;
}

/** A uniformly random permutation (Fisher–Yates); sorting by a random comparator is biased. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Runs every contender for `n` calls, in a shuffled order, for several rounds, each round with
 * freshly started processes, and keeps each one's best round median. On a shared two-core
 * machine a round trip costs about twice as much when the scheduler happens to place the two
 * processes badly, and a placement lasts as long as the processes: new processes every round give
 * every contender the same chances, and the best round is the one least disturbed by neighbours.
 */
async function interleaved(
  contenders: Contender[],
  rounds: number,
  n: number,
): Promise<{ best: Map<string, number>; cpu: Map<string, number> }> {
  const best = new Map<string, number>();
  const cpu = new Map<string, number>();
  for (let r = 0; r < rounds; r++) {
    const order = shuffled(contenders);
    for (const c of order) {
      const { call, close } = await c.open();
      const used = process.cpuUsage();
      const m = median(await samples(n, WARM, call));
      const { user, system } = process.cpuUsage(used);
      await close();
      best.set(c.name, Math.min(best.get(c.name) ?? Infinity, m));
      // This process's CPU per call (warm-up included): the client's side of a call, which is all
      // the host adds, and which placement on the cores moves far less than the round trip.
      cpu.set(c.name, Math.min(cpu.get(c.name) ?? Infinity, (user + system) / (n + WARM)));
    }
  }
  return { best, cpu };
}

async function roundTrips(): Promise<void> {
  const rounds = quick ? 3 : 7;
  const perRound = quick ? 400 : 800;
  report.section(
    `Call round trip: best of ${rounds} rounds (fresh processes each, shuffled), p50 of ${perRound} sequential calls each`,
  );
  const peers = path.join(ROOT, 'bench', 'peers');
  const server = path.join(FIX, 'mcp-echo', 'server.mjs');
  const args = { text: 'hi' };
  let id = 1;
  const peerSpec = (
    pid: string,
    script: string,
    dialect: 'gassist-v2' | 'jsonrpc',
    framing: 'ndjson' | 'length-prefixed',
    env: Record<string, string> = {},
  ): PluginSpec => ({
    ...libSpec('jsonrpc', pid),
    dialect,
    framing,
    dir: peers,
    cwd: peers,
    command: ['node', script],
    env,
  });
  const rawContender = (
    name: string,
    script: string,
    framing: 'ndjson' | 'length-prefixed',
    init: unknown,
    request: (i: number) => unknown,
    match: (i: number) => (m: Record<string, unknown>) => boolean,
  ): Contender => ({
    name,
    open: async () => {
      const c = new RawClient('node', [script], framing);
      if (init) await c.exchange(init, (m) => m.id === 0);
      if (name === 'mcp-raw') c.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return {
        call: () => {
          const i = id++;
          return c.exchange(request(i), match(i));
        },
        close: () => c.close(),
      };
    },
  });
  // The host's contenders run unsandboxed, as the raw ones do. `inSandbox`: as the app runs a
  // plugin instead, in its sandbox with the limits this machine holds (where bwrap works).
  const sandboxed = sandboxSupport().available;
  const data = mkdtempSync(path.join(os.tmpdir(), 'plugboard-bench-round-trips-'));
  const hostContender = (name: string, make: () => PluginSpec, inSandbox = false): Contender => ({
    name,
    open: async () => {
      let sup: PluginSupervisor;
      if (inSandbox) {
        const s = { ...make(), capabilities: [] };
        const sandbox = { grants: [], dataDir: path.join(data, s.id), hiddenRoot: path.join(data, 'hidden') };
        const plan = await host.plan(s, {}, {}, sandbox);
        if (!plan.ok || plan.sandbox?.active !== true) throw new Error(`${name}: not sandboxed`);
        sup = await host.add(s, { binding: { plan, allowedCapabilities: [] } });
      } else sup = await add(make());
      await sup.start();
      return { call: () => hostCall(sup, 'echo', args), close: () => host.remove(sup.spec.id) };
    },
  });
  const byId = (i: number) => (m: Record<string, unknown>) => m.id === i;
  const { best, cpu } = await interleaved(
    [
      rawContender(
        'floor',
        path.join(peers, 'raw-echo.mjs'),
        'ndjson',
        null,
        (i) => ({ jsonrpc: '2.0', id: i, method: 'echo', params: args }),
        byId,
      ),
      rawContender(
        'ga-raw',
        path.join(peers, 'echo-gassist.mjs'),
        'length-prefixed',
        { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocol_version: '2.0' } },
        (i) => ({
          jsonrpc: '2.0',
          id: i,
          method: 'execute',
          params: { function: 'echo', arguments: args, context: [], system_info: '' },
        }),
        () => (m) => m.method === 'complete',
      ),
      hostContender('ga', () => peerSpec('bench-gassist', 'echo-gassist.mjs', 'gassist-v2', 'length-prefixed')),
      rawContender(
        'jr-raw',
        path.join(peers, 'echo-jsonrpc.mjs'),
        'ndjson',
        null,
        (i) => ({ jsonrpc: '2.0', id: i, method: 'echo', params: args }),
        byId,
      ),
      hostContender('jr', () => peerSpec('bench-jsonrpc', 'echo-jsonrpc.mjs', 'jsonrpc', 'ndjson')),
      ...(sandboxed
        ? [
            hostContender(
              'jr-sandboxed',
              () => peerSpec('bench-jsonrpc-sb', 'echo-jsonrpc.mjs', 'jsonrpc', 'ndjson'),
              true,
            ),
          ]
        : []),
      hostContender('lp', () =>
        peerSpec('bench-jsonrpc-lp', 'echo-jsonrpc.mjs', 'jsonrpc', 'length-prefixed', { FRAMING: 'length-prefixed' }),
      ),
      rawContender(
        'mcp-raw',
        server,
        'ndjson',
        {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        },
        (i) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: args } }),
        byId,
      ),
      {
        name: 'sdk',
        open: async () => {
          const sdk = new Client({ name: 'bench', version: '1' });
          await sdk.connect(new StdioClientTransport({ command: 'node', args: [server] }));
          // With onprogress, as the host always asks for progress: the same work for the server.
          return {
            call: () => sdk.callTool({ name: 'echo', arguments: args }, undefined, { onprogress: () => {} }),
            close: () => sdk.close(),
          };
        },
      },
      {
        name: 'sdk2',
        open: async () => {
          const sdk = new ClientV2({ name: 'bench', version: '1' });
          await sdk.connect(new StdioClientTransportV2({ command: 'node', args: [server] }));
          return {
            call: () => sdk.callTool({ name: 'echo', arguments: args }, { onprogress: () => {} }),
            close: () => sdk.close(),
          };
        },
      },
      hostContender('mcp', () => spec(path.join(FIX, 'mcp-echo'), { id: 'bench-mcp' })),
    ],
    rounds,
    perRound,
  ).finally(() => rmSync(data, { recursive: true, force: true }));
  const v = (k: string) => best.get(k) as number;
  const floorRef = { name: 'raw NDJSON echo', value: v('floor') };
  const sdkRef = { name: 'MCP SDK v2 client', value: v('sdk2') };
  // Issue 16, item 10: what the host may add to a call, per protocol.
  const gassistTarget = { maxRatio: 1.5, text: '≤ 1.5× raw' };
  const jsonrpcTarget = { maxRatio: 1.3, text: '≤ 1.3× raw' };
  const atMostSdk = { maxRatio: 1, text: '≤ MCP SDK' };
  report.add({ name: 'raw NDJSON echo, Node ↔ Node (the floor)', value: v('floor'), unit: 'us' });
  report.add({ name: 'raw client → minimal G-Assist echo plugin', value: v('ga-raw'), unit: 'us', baseline: floorRef });
  report.add({
    name: 'host → G-Assist V2 (length-prefixed)',
    value: v('ga'),
    unit: 'us',
    baseline: floorRef,
    target: gassistTarget,
  });
  report.add({ name: 'raw client → minimal JSON-RPC echo plugin', value: v('jr-raw'), unit: 'us', baseline: floorRef });
  report.add({
    name: 'host → JSON-RPC (NDJSON)',
    value: v('jr'),
    unit: 'us',
    baseline: floorRef,
    target: jsonrpcTarget,
  });
  // Length-prefixed frames cost what they cost G-Assist: the same target as G-Assist's.
  report.add({
    name: 'host → JSON-RPC (length-prefixed)',
    value: v('lp'),
    unit: 'us',
    baseline: floorRef,
    target: gassistTarget,
  });
  if (sandboxed)
    report.add({
      name: 'host → JSON-RPC (NDJSON), in its sandbox',
      value: v('jr-sandboxed'),
      unit: 'us',
      baseline: { name: 'unsandboxed', value: v('jr') },
    });
  report.add({
    name: 'raw client → MCP echo server (SDK server)',
    value: v('mcp-raw'),
    unit: 'us',
    baseline: floorRef,
  });
  report.add({
    name: 'MCP SDK v2 client (onprogress) → same server',
    value: v('sdk2'),
    unit: 'us',
    baseline: { name: 'raw client, same server', value: v('mcp-raw') },
  });
  report.add({
    name: 'MCP SDK v1 client (onprogress) → same server',
    value: v('sdk'),
    unit: 'us',
    baseline: { name: 'raw client, same server', value: v('mcp-raw') },
  });
  // The host speaks MCP through the v2 client: against it, the figure is what the host adds.
  report.add({ name: 'host → MCP (same server)', value: v('mcp'), unit: 'us', baseline: sdkRef, target: atMostSdk });
  report.add({
    name: 'host → MCP, against the SDK v1 client',
    value: v('mcp'),
    unit: 'us',
    baseline: { name: 'MCP SDK v1 client', value: v('sdk') },
  });
  report.add({
    name: 'host → MCP, against a raw client to that server',
    value: v('mcp'),
    unit: 'us',
    baseline: { name: 'raw, same server', value: v('mcp-raw') },
    target: { maxRatio: 2, text: '≤ 2× raw' },
  });
  report.add({
    name: 'host → G-Assist V2, against the MCP SDK',
    value: v('ga'),
    unit: 'us',
    baseline: sdkRef,
    target: atMostSdk,
  });
  report.add({
    name: 'host → JSON-RPC, against the MCP SDK',
    value: v('jr'),
    unit: 'us',
    baseline: sdkRef,
    target: atMostSdk,
  });
  // The same calls by this process's CPU time: what the client side (the host, or a raw client)
  // spends per call. A round trip on two shared cores moves by a third between runs with where
  // the scheduler puts the two processes; the client's own work does not.
  const c = (k: string) => cpu.get(k) as number;
  const cpuPairs: Array<[baseName: string, base: string, hostName: string, host: string, against: string]> = [
    ['raw client, G-Assist echo plugin', 'ga-raw', 'host → G-Assist V2', 'ga', 'raw client'],
    ['raw client, JSON-RPC echo plugin', 'jr-raw', 'host → JSON-RPC (NDJSON)', 'jr', 'raw client'],
    ['MCP SDK v2 client', 'sdk2', 'host → MCP', 'mcp', 'MCP SDK v2 client'],
  ];
  for (const [baseName, base, hostName, hostKey, against] of cpuPairs) {
    report.add({ name: `CPU per call: ${baseName}`, value: c(base), unit: 'us' });
    report.add({
      name: `CPU per call: ${hostName}`,
      value: c(hostKey),
      unit: 'us',
      baseline: { name: against, value: c(base) },
    });
  }

  // rterm: one process per call, against spawning the same plugin by hand. The raw side stops
  // at the response and leaves the exit off the clock; the host's call also waits for the exit
  // (the protocol's rule before success), so the baseline is the stricter one. Target 1.5×
  // (issue 17, item 9): the process's start is the call, and Plugboard may add half of it at most.
  const rtN = quick ? 30 : 100;
  const rtDir = path.join(FIX, 'rterm-echo');
  const closing: Promise<void>[] = [];
  const rawRterm = median(
    await samples(rtN, 5, async () => {
      const c = new RawClient('node', ['plugin.mjs'], 'ndjson', rtDir);
      await c.exchange({ type: 'handshake', protocol_version: 'rterm.plugin.v1' }, (m) => m.type === 'handshake');
      await c.exchange(
        { type: 'request', request_id: 'r', tool_name: 'echo', context: {}, input: { text: 'hi' } },
        (m) => m.type === 'response',
      );
      closing.push(c.close());
    }),
  );
  await Promise.all(closing);
  const rt = await add(spec(rtDir));
  const rtHost = median(await samples(rtN, 5, () => hostCall(rt, 'echo', { text: 'hi' })));
  report.add({ name: `raw spawn+handshake+call+exit, rterm (n=${rtN})`, value: rawRterm, unit: 'us' });
  report.add({
    name: `host → rterm.plugin.v1, process per call (n=${rtN})`,
    value: rtHost,
    unit: 'us',
    baseline: { name: 'raw, same plugin', value: rawRterm },
    target: { maxRatio: 1.5, text: '≤ 1.5× raw' },
  });
  await host.remove(rt.spec.id);
}

async function streams(): Promise<void> {
  report.section('Stream throughput, one plugin streaming to a reader (chunks per second; MB/s of payload)');
  const peers = path.join(ROOT, 'bench', 'peers');
  for (const [size, n] of [
    [64, quick ? 50_000 : 200_000],
    [4096, quick ? 5_000 : 20_000],
  ] as const) {
    // Raw: the same stream source, read with a line split and JSON.parse per chunk, nothing else.
    const raw = new RawClient('node', [path.join(peers, 'stream-jsonrpc.mjs')], 'ndjson');
    const sup = await add({
      ...libSpec('jsonrpc', `bench-stream-${size}`),
      dir: peers,
      cwd: peers,
      command: ['node', 'stream-jsonrpc.mjs'],
    });
    await sup.start();
    let rawBest = 0;
    let hostBest = 0;
    for (let r = 0; r < 3; r++) {
      let count = 0;
      raw.onOther = () => count++;
      let t0 = performance.now();
      await raw.exchange({ jsonrpc: '2.0', id: r, method: 'blast', params: { n, size } }, (m) => m.id === r);
      if (count !== n) throw new Error(`raw stream lost chunks: ${count}/${n}`);
      rawBest = Math.max(rawBest, (n / (performance.now() - t0)) * 1000);
      count = 0;
      t0 = performance.now();
      const o = await sup.call('blast', { n, size }, { onEvent: (e) => e.type === 'stream' && count++ }).done;
      if (!o.ok || count !== n) throw new Error(`host stream lost chunks: ${count}/${n}`);
      hostBest = Math.max(hostBest, (n / (performance.now() - t0)) * 1000);
    }
    await raw.close();
    const label = size === 64 ? '64 B' : '4 KiB';
    report.add({ name: `raw NDJSON stream, ${label} chunks (n=${n})`, value: rawBest, unit: '/s' });
    report.add({
      name: `host stream, ${label} chunks`,
      value: hostBest,
      unit: '/s',
      baseline: { name: 'raw', value: rawBest },
      target: { minRatio: 0.5, text: '≥ 0.5× raw' },
    });
    report.add({ name: `host stream, ${label} chunks, payload`, value: (hostBest * size) / 1e6, unit: 'MB/s' });
    await host.remove(sup.spec.id);
  }
}

function waitState(sup: PluginSupervisor, state: HealthState, ms: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${sup.spec.id}: no ${state} within ${ms} ms`)), ms);
    const sub = sup.onDidChangeHealth((h) => {
      if (h.state === state) {
        clearTimeout(t);
        sub.dispose();
        resolve(performance.now());
      }
    });
  });
}

async function watchdog(): Promise<void> {
  const trials = quick ? 4 : 8;
  report.section(
    `Watchdog: a plugin frozen (SIGSTOP) at a random moment while idle, default deadlines (${trials} trials)`,
  );
  const sup = await add(libSpec('gassist', 'bench-freeze', { persistent: true }));
  const kills: number[] = [];
  for (let i = 0; i < trials; i++) {
    await sup.start(); // a user start: the restart budget is fresh for every trial
    await new Promise((r) => setTimeout(r, 1200 + Math.random() * 1000));
    const dead = waitState(sup, 'unresponsive', 10_000);
    const frozenAt = performance.now();
    process.kill(sup.health.pid as number, 'SIGSTOP');
    kills.push((await dead) - frozenAt);
    await waitState(sup, 'ready', 10_000);
  }
  const t = sup.spec.timeouts;
  report.add({
    name: `freeze → kill, median (ping ${t.pingIntervalMs} ms, deadline ${t.pingTimeoutMs} ms)`,
    value: median(kills),
    unit: 'ms',
    target: { maxValue: 2500, text: '≤ 2.5 s' },
  });
  report.add({
    name: 'freeze → kill, worst of the trials',
    value: Math.max(...kills),
    unit: 'ms',
    target: { maxValue: 2500, text: '≤ 2.5 s' },
  });
  await host.remove(sup.spec.id);
}

async function crashes(): Promise<void> {
  const trials = quick ? 3 : 6;
  report.section(`Crash: SIGKILL to an idle plugin (${trials} trials; first restart after the 1 s back-off)`);
  const noticed: number[] = [];
  const ready: number[] = [];
  const sup = await add(libSpec('gassist', 'bench-crash', { persistent: true }));
  for (let i = 0; i < trials; i++) {
    await sup.start();
    await new Promise((r) => setTimeout(r, 200));
    const crashed = waitState(sup, 'crashed', 5000);
    const up = waitState(sup, 'ready', 10_000);
    const t0 = performance.now();
    process.kill(sup.health.pid as number, 'SIGKILL');
    noticed.push((await crashed) - t0);
    ready.push((await up) - t0);
  }
  report.add({
    name: 'crash → noticed (health: crashed), median',
    value: median(noticed),
    unit: 'ms',
    target: { maxValue: 100, text: '≤ 100 ms' },
  });
  report.add({
    name: 'crash → noticed, worst',
    value: Math.max(...noticed),
    unit: 'ms',
    target: { maxValue: 100, text: '≤ 100 ms' },
  });
  report.add({ name: 'crash → ready again, median (incl. 1 s back-off)', value: median(ready), unit: 'ms' });
  report.add({ name: 'crash → ready again, p95', value: percentile(ready, 95), unit: 'ms' });
  await host.remove(sup.spec.id);
}

async function main(): Promise<void> {
  console.log(
    `Plugboard host benchmarks${quick ? ' (quick)' : ''} — node ${process.version}, ${new Date().toISOString()}`,
  );
  const sections: [string, () => Promise<void>][] = [
    ['round-trips', roundTrips],
    ['streams', streams],
    ['watchdog', watchdog],
    ['crashes', crashes],
    ['store', () => storeBench(report, quick)],
    ['assistant', () => assistantBench(report, quick)],
    ['mcp-server', () => mcpServerBench(report, quick)],
    ['cli', async () => cliColdStart(report, ROOT, quick ? 10 : 30)],
    ['npx-start', () => npxStartBench(report, quick)],
    ['sandbox', () => sandboxBench(report, ROOT, quick)],
  ];
  const unknown = [...(only ?? [])].filter((n) => !sections.some(([name]) => name === n));
  if (unknown.length > 0)
    throw new Error(`--only: no section ${unknown.join(', ')}; there are ${sections.map(([n]) => n).join(', ')}`);
  for (const [name, run] of sections) if (!only || only.has(name)) await run();
  await host.shutdown();
  const unmet = report.unmet;
  console.log(unmet.length === 0 ? '\nAll targets met.' : `\nTargets not met: ${unmet.map((f) => f.name).join('; ')}`);
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(report.figures, null, 2));
  // A missed target fails the run, once everything is printed and written.
  if (unmet.length > 0) process.exitCode = 1;
}

main().catch(async (e) => {
  console.error(e);
  await host.shutdown();
  process.exit(1);
});
