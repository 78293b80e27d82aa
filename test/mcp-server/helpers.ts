/**
 * For the tests of Plugboard as an MCP server: a data folder with a plugin of every protocol
 * installed (from test/fixtures, each made standalone: the fixtures that share code in
 * test/fixtures/lib get that code copied in, so they run in the sandbox like any installed
 * plugin), and the real `plugboard mcp` process driven by the MCP SDK's own client.
 */
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { FIXTURES, REPO, tmpDir } from '../helpers/plugins';

/** The fixtures whose entry imports ../lib: which file, and which lib script it is. */
const SHARED_LIB: Record<string, [entry: string, lib: string]> = {
  'gassist-node': ['plugin.mjs', 'gassist.mjs'],
  'planner-executor': ['executor.mjs', 'jsonrpc.mjs'],
  'rterm-echo': ['plugin.mjs', 'rterm.mjs'],
};

/** A copy of a fixture that runs on its own (its shared lib script copied over its entry). */
export function standalone(fixture: string): string {
  // A fixture in a folder of fixtures (`hostile/rug-pull`) keeps its own name.
  const dir = path.join(tmpDir(`src-${fixture.replace(/\//g, '-')}`), path.basename(fixture));
  cpSync(path.join(FIXTURES, fixture), dir, { recursive: true });
  const shared = SHARED_LIB[fixture];
  if (shared) cpSync(path.join(FIXTURES, 'lib', shared[1]), path.join(dir, shared[0]));
  return dir;
}

/** The registry of `data` as another Plugboard process would open it (the app, `plugboard plugins`). */
export function openRegistry(data: string): Promise<PluginRegistry> {
  return PluginRegistry.open({
    dataDir: data,
    bundledDir: path.join(REPO, 'plugins'),
    nodeModules: path.join(REPO, 'node_modules'),
  });
}

/** Installs fixtures (granted what they request) into `data`; throws with the reason when one fails. */
export async function installInto(registry: PluginRegistry, fixtures: string[]): Promise<void> {
  for (const f of fixtures) {
    const r = await registry.installer.install(standalone(f));
    if (!r.ok) throw new Error(`installing ${f}: ${r.message}`);
  }
}

export interface McpRun {
  client: Client;
  transport: StdioClientTransport;
  /** The `plugboard mcp` process. */
  pid: number;
  stderr(): string;
}

/** `plugboard mcp --data-dir DATA` run by the SDK's stdio client, connected. */
export async function connectMcp(
  data: string,
  info: { name: string; version: string; title?: string } = { name: 'test-client', version: '1.0.0' },
  options: ClientOptions = {},
  setup: (client: Client) => void = () => {},
): Promise<McpRun> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(REPO, 'bin', 'plugboard.mjs'), 'mcp', '--data-dir', data],
    env: { ...process.env, NO_COLOR: '1' } as Record<string, string>,
    stderr: 'pipe',
    cwd: REPO,
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client(info, options);
  setup(client);
  await client.connect(transport);
  return { client, transport, pid: transport.pid as number, stderr: () => err };
}

/** The audit log's lines for calls that came through MCP. */
export function mcpAudit(data: string): Array<Record<string, unknown>> {
  const file = path.join(data, 'audit.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((e) => e.action === 'mcp-call');
}

/** The pid registry's file of a Plugboard process, if it left one in `data`. */
export function pidFilesOf(data: string, pid: number): string[] {
  const dir = path.join(data, 'processes');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(`${pid}-`)) : [];
}

/** The text parts of a tool result, joined. */
export function textOf(r: unknown): string {
  const content = (r as { content?: unknown }).content;
  const parts = Array.isArray(content) ? (content as Array<{ type: string; text?: string }>) : [];
  return parts
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}
