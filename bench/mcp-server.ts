/**
 * Plugboard as an MCP server, against what it adds to, measured in the same run: a tool call
 * from the MCP SDK's own stdio client through a real `plugboard mcp` process to its result,
 * against the same call through the registry's running host in this process, which is what
 * `plugboard call` and `plugboard bench` do. Same data folder, same plugin (the bundled hello
 * plugin's `say_hello`, a real G-Assist process, sandboxed where the sandbox works, allowed by its
 * policy so nobody is asked), same arguments. The difference is the MCP layer's cost: the stdio
 * hop to another process, the SDK's server and client, the lookup, decision and audit line.
 *
 * Each contender runs in a few rounds with fresh processes (shuffled), and the round with the best
 * median is reported with its p50 and p95: on a shared machine the placement of processes on the
 * cores changes a round trip more than anything measured here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PluginRegistry } from '../src/main/plugins';
import { median, percentile } from '../src/shared/stats';
import type { Report } from './lib/report';

const ROOT = path.resolve(import.meta.dirname, '..');
const ARGS = { name: 'Ada' };

interface Contender {
  name: string;
  open(): Promise<{ call(): Promise<void>; close(): Promise<void> }>;
}

export async function mcpServerBench(report: Report, quick: boolean): Promise<void> {
  const rounds = quick ? 2 : 4;
  const n = quick ? 150 : 400;
  const warm = quick ? 20 : 50;
  report.section(
    `Plugboard as an MCP server: a tool call, best of ${rounds} rounds (fresh processes each), ${n} sequential calls each`,
  );
  const data = mkdtempSync(path.join(os.tmpdir(), 'plugboard-bench-mcp-'));
  const opts = { dataDir: data, bundledDir: path.join(ROOT, 'plugins'), nodeModules: path.join(ROOT, 'node_modules') };
  const direct: Contender = {
    name: 'direct',
    open: async () => {
      const registry = await PluginRegistry.open(opts);
      return {
        call: async () => {
          const o = await registry.call('hello', 'say_hello', ARGS).done;
          if (!o.ok) throw new Error(`hello:say_hello: ${o.code} ${o.message}`);
        },
        close: async () => {
          await registry.shutdown();
          registry.dispose();
        },
      };
    },
  };
  const mcp: Contender = {
    name: 'mcp',
    open: async () => {
      const client = new Client({ name: 'bench', version: '1' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [path.join(ROOT, 'bin', 'plugboard.mjs'), 'mcp', '--data-dir', data],
          env: { ...process.env } as Record<string, string>,
          stderr: 'ignore',
        }),
      );
      return {
        call: async () => {
          const r = await client.callTool({ name: 'hello__say_hello', arguments: ARGS });
          if (r.isError) throw new Error(`hello__say_hello: ${JSON.stringify(r.content)}`);
        },
        close: () => client.close(),
      };
    },
  };
  const best = new Map<string, number[]>();
  try {
    for (let r = 0; r < rounds; r++) {
      for (const c of Math.random() < 0.5 ? [direct, mcp] : [mcp, direct]) {
        const { call, close } = await c.open();
        for (let i = 0; i < warm; i++) await call();
        const us: number[] = [];
        for (let i = 0; i < n; i++) {
          const t0 = process.hrtime.bigint();
          await call();
          us.push(Number(process.hrtime.bigint() - t0) / 1000);
        }
        await close();
        const kept = best.get(c.name);
        if (!kept || median(us) < median(kept)) best.set(c.name, us);
      }
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
  const d = best.get('direct') as number[];
  const m = best.get('mcp') as number[];
  const p50 = { name: 'plugboard call’s host, p50', value: median(d) };
  const p95 = { name: 'plugboard call’s host, p95', value: percentile(d, 95) };
  report.add({ name: 'plugboard call’s running host → hello, p50', value: p50.value, unit: 'us' });
  report.add({ name: 'plugboard call’s running host → hello, p95', value: p95.value, unit: 'us' });
  report.add({ name: 'SDK client → plugboard mcp → hello, p50', value: median(m), unit: 'us', baseline: p50 });
  report.add({ name: 'SDK client → plugboard mcp → hello, p95', value: percentile(m, 95), unit: 'us', baseline: p95 });
  report.add({ name: 'the MCP layer’s cost per call, at p50', value: median(m) - p50.value, unit: 'us' });
}
