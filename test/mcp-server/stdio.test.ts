/**
 * Plugboard as an MCP server on stdio, as another app uses it: the real `plugboard mcp` process,
 * driven by the MCP SDK's own client, over a data folder with a plugin of every protocol
 * installed (G-Assist, Mehrhof, rterm, planner/executor, MCP), sandboxed as installed plugins
 * are. Another Plugboard process on the same folder is played by a registry in this test
 * process: it installs, switches tools off and sets policies while `plugboard mcp` runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { gone, isAlive } from '../helpers/processes';
import { connectMcp, installInto, mcpAudit, openRegistry, pidFilesOf, textOf, type McpRun } from './helpers';

let data: string;
let other: PluginRegistry;
let run: McpRun;
const errors: Error[] = [];

/**
 * What a client knows after being told the tool list changed: it lists the tools again. The
 * names of the newest such listing, so a test waits for the list a notice led to, not for a
 * count a late notice of the test before could already satisfy.
 */
let noticed: string[] = [];
let notices = 0;
async function relistOnNotice(client: Client): Promise<void> {
  const n = (notices += 1);
  const listed = (await client.listTools()).tools.map((t) => t.name);
  if (n === notices) noticed = listed;
}
const afterNotice = () => expect.poll(() => noticed, { timeout: 15_000 });

const names = async (): Promise<string[]> => (await run.client.listTools()).tools.map((t) => t.name);

beforeAll(async () => {
  data = path.join(tmpDir('mcp-stdio'), 'data');
  other = await openRegistry(data);
  await installInto(other, [
    'gassist-node',
    'mehrhof-provider',
    'rterm-echo',
    'planner-executor',
    'mcp-echo',
    'mcp-onward',
  ]);
  // The calls of this file run without asking, but where a test sets a tool to ask.
  expect((await other.decisions.setApprovalDefault('allow')).ok).toBe(true);
  run = await connectMcp(data, { name: 'test-client', version: '1.0.0' }, {}, (c) =>
    c.setNotificationHandler(
      ToolListChangedNotificationSchema,
      () => void relistOnNotice(c).catch((e) => errors.push(e)),
    ),
  );
  run.client.onerror = (e) => errors.push(e);
}, 120_000);

afterAll(async () => {
  await run?.client.close();
  await other?.shutdown();
  other?.dispose();
  cleanupFixtures();
});

describe('plugboard mcp', () => {
  it('lists the exposed tools of every protocol, named as a model in the app sees them', async () => {
    const tools = (await run.client.listTools()).tools;
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of [
      'gassist_node__echo', // G-Assist V2
      'fixture_provider__provider_fetch', // Mehrhof JSON-RPC
      'rterm_echo__upper', // rterm.plugin.v1
      'planner_executor__execute_task', // planner/executor
      'mcp_echo__echo', // MCP
      'hello__say_hello', // a bundled plugin
    ])
      expect(byName.has(name), `${name} in ${[...byName.keys()].join(', ')}`).toBe(true);
    const echo = byName.get('gassist_node__echo') as Tool;
    expect(echo.description).toBe('Say the text back');
    expect(echo.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
  });

  it('calls each, through its own protocol, and gives structured content where the plugin gave an object', async () => {
    const call = (name: string, args: Record<string, unknown>) => run.client.callTool({ name, arguments: args });
    expect(textOf(await call('gassist_node__echo', { text: 'hi from G-Assist' }))).toBe('hi from G-Assist');
    const fetched = await call('fixture_provider__provider_fetch', { id: 'PROJ-1' });
    expect(fetched.isError).toBeFalsy();
    expect(fetched.structuredContent).toEqual({
      id: 'PROJ-1',
      title: 'Task PROJ-1',
      status: 'open',
      provider: 'fixture-provider',
    });
    expect(JSON.parse(textOf(fetched))).toEqual(fetched.structuredContent);
    expect(textOf(await call('rterm_echo__upper', { text: 'quiet' }))).toBe('QUIET');
    const planned = await call('planner_executor__execute_task', { prompt: 'x', chunks: 3 });
    expect(textOf(planned)).toMatch(/^part 1 part 2 part 3 /);
    expect(planned.structuredContent).toEqual({ status: 'success', output: { code: 'done', explanation: 'x' } });
    expect(textOf(await call('mcp_echo__echo', { text: 'hello' }))).toBe('hello');
  });

  it('sends a plugin’s stream as progress, when the client asked for it', async () => {
    // Each piece with a pause after it: the SDK's client drops progress it reads together with
    // the result (it handles the result first), so a test must not depend on how reads fall.
    const gassist: unknown[] = [];
    const counted = await run.client.callTool(
      { name: 'gassist_node__count', arguments: { n: 3, delay_ms: 30 } },
      undefined,
      { onprogress: (p) => gassist.push(p) },
    );
    expect(gassist).toEqual([
      { progress: 1, message: '1\n' },
      { progress: 2, message: '2\n' },
      { progress: 3, message: '3\n' },
    ]);
    // The card's text: what streamed, then the completion's words.
    expect(textOf(counted)).toBe('1\n2\n3\ncounted to 3');
    const mcp: unknown[] = [];
    const stepped = await run.client.callTool({ name: 'mcp_onward__steps', arguments: { n: 3 } }, undefined, {
      onprogress: (p) => mcp.push(p),
    });
    // An MCP server's own numbers go on as they are; its progress is not its output.
    expect(mcp).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
    expect(textOf(stepped)).toBe('3 steps');
    // Without a progress token, nothing but the result.
    expect(textOf(await run.client.callTool({ name: 'mcp_echo__progress', arguments: { steps: 2 } }))).toBe(
      'did 2 steps',
    );
  });

  it('refuses arguments that do not fit the schema, before anything runs or anyone is asked', async () => {
    const r = await run.client.callTool({ name: 'gassist_node__echo', arguments: { text: 3 } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^invalid_arguments: arguments for gassist-node:echo do not match its schema/);
  });

  it('audits every call with the decision and the client that made it', () => {
    const lines = mcpAudit(data);
    expect(lines).toContainEqual(
      expect.objectContaining({
        action: 'mcp-call',
        plugin: 'rterm-echo',
        tool: 'upper',
        ok: true,
        detail: 'allowed by policy; arguments: text',
        client: 'test-client 1.0.0 (MCP over stdio)',
      }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ plugin: 'gassist-node', tool: 'echo', ok: false }));
  });

  it('stops listing a tool another process switches off, says list_changed, and refuses it with the reason', async () => {
    expect((await other.decisions.setExposed('mcp-echo', 'echo', false)).ok).toBe(true);
    await afterNotice().not.toContain('mcp_echo__echo');
    expect(noticed).toContain('mcp_echo__progress');
    expect(await names()).not.toContain('mcp_echo__echo');
    expect(await names()).toContain('mcp_echo__progress');
    const r = await run.client.callTool({ name: 'mcp_echo__echo', arguments: { text: 'x' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('tool_not_exposed: mcp-echo:echo is switched off in Plugboard: nothing ran');

    expect((await other.decisions.setEnabled('mcp-echo', false)).ok).toBe(true);
    await afterNotice().not.toContain('mcp_echo__progress');
    expect(noticed.some((n) => n.startsWith('mcp_echo__'))).toBe(false);
    expect((await names()).some((n) => n.startsWith('mcp_echo__'))).toBe(false);
    const off = await run.client.callTool({ name: 'mcp_echo__progress', arguments: { steps: 1 } });
    expect(textOf(off)).toMatch(/^disabled: mcp-echo is disabled in Plugboard/);

    expect((await other.decisions.setEnabled('mcp-echo', true)).ok).toBe(true);
    expect((await other.decisions.setExposed('mcp-echo', 'echo', true)).ok).toBe(true);
    await expect.poll(names, { timeout: 15_000 }).toContain('mcp_echo__echo');
    expect(textOf(await run.client.callTool({ name: 'mcp_echo__echo', arguments: { text: 'back' } }))).toBe('back');
  });

  it('passes on a tool’s title, annotations and icons, and an MCP server’s content as it is', async () => {
    const wait = (await run.client.listTools()).tools.find((t) => t.name === 'mcp_onward__wait') as Tool;
    expect(wait.title).toBe('Wait for a cancel');
    expect(wait.annotations).toEqual({ title: 'Wait for a cancel', readOnlyHint: true, openWorldHint: false });
    expect(wait.icons).toEqual([
      { src: expect.stringMatching(/^data:image\/png;base64,/), mimeType: 'image/png', sizes: ['1x1'] },
    ]);
    const picture = await run.client.callTool({ name: 'mcp_onward__picture', arguments: {} });
    expect(picture.content).toEqual([
      { type: 'text', text: 'a dot' },
      { type: 'image', data: expect.any(String), mimeType: 'image/png' },
    ]);
  });

  it('offers a plugin another process installs, and says list_changed', async () => {
    await installInto(other, ['mcp-prompts']);
    await afterNotice().toContain('mcp_prompts__note');
    expect(textOf(await run.client.callTool({ name: 'mcp_prompts__note', arguments: { text: 'milk' } }))).toBe(
      'noted: milk',
    );
  });

  it('offers the hosted MCP servers’ resources and prompts under the server’s name', async () => {
    const resources = (await run.client.listResources()).resources;
    expect(resources).toContainEqual({
      uri: 'notes://today',
      name: 'mcp-onward__today',
      title: 'MCP onward: Today',
      description: "Today's notes",
      mimeType: 'text/plain',
    });
    expect((await run.client.readResource({ uri: 'notes://today' })).contents).toEqual([
      { uri: 'notes://today', mimeType: 'text/plain', text: 'Buy milk.' },
    ]);
    const prompt = (await run.client.listPrompts()).prompts.find((p) => p.name === 'mcp_prompts__release_notes');
    expect(prompt).toMatchObject({
      title: 'MCP prompts: Release notes',
      arguments: [
        { name: 'version', required: true, description: 'The version to write about' },
        { name: 'audience', required: false, description: 'Who reads them' },
      ],
    });
    const got = await run.client.getPrompt({ name: 'mcp_prompts__release_notes', arguments: { version: '2.0' } });
    expect(got.messages[0]).toEqual({
      role: 'user',
      content: { type: 'text', text: 'Write the release notes of version 2.0.' },
    });
  });

  it('stops the plugin’s call when the client cancels', async () => {
    const log = path.join(data, 'plugin-data', 'mcp-onward', 'cancelled.log');
    const read = (): string => (existsSync(log) ? readFileSync(log, 'utf8') : '');
    const abort = new AbortController();
    const call = run.client.callTool({ name: 'mcp_onward__wait', arguments: { label: 'first' } }, undefined, {
      signal: abort.signal,
    });
    await expect.poll(read, { timeout: 15_000 }).toContain('started first');
    abort.abort(new Error('the person pressed stop'));
    await expect(call).rejects.toThrow(/the person pressed stop/);
    await expect.poll(read, { timeout: 15_000 }).toContain('cancelled first');
  });

  it('wrote nothing to stdout but the protocol', () => {
    // Every line the client read parsed as JSON-RPC: a stray line would be reported here. (The
    // SDK's client also reports progress it read after its result, which is not about stdout.)
    expect(errors.filter((e) => !/progress notification for an unknown token/.test(e.message))).toEqual([]);
  });

  it('stops every plugin it started when the client leaves, and leaves no process record', async () => {
    const [file] = pidFilesOf(data, run.pid);
    expect(file).toBeDefined();
    const record = JSON.parse(readFileSync(path.join(data, 'processes', file as string), 'utf8')) as {
      processes: Array<{ pid: number; plugin: string }>;
    };
    // mcp-echo, mcp-onward and mcp-prompts at least were running.
    expect(record.processes.map((p) => p.plugin)).toEqual(expect.arrayContaining(['mcp-echo', 'mcp-onward']));
    expect(record.processes.every((p) => isAlive(p.pid))).toBe(true);
    await run.client.close();
    expect(await gone(run.pid, 15_000)).toBe(true);
    for (const p of record.processes) expect(await gone(p.pid, 5000), `${p.plugin} (pid ${p.pid})`).toBe(true);
    expect(pidFilesOf(data, run.pid)).toEqual([]);
    expect(run.stderr()).not.toMatch(/Error|error:/);
  });
});

describe('plugboard mcp, switched off', () => {
  it('runs with a plugin switched off as a whole: its tools are not listed', async () => {
    expect((await other.decisions.setExposed('rterm-echo', undefined, false)).ok).toBe(true);
    const again = await connectMcp(data);
    try {
      const listed = (await again.client.listTools()).tools.map((t) => t.name);
      expect(listed.some((n) => n.startsWith('rterm_echo__'))).toBe(false);
      expect(textOf(await again.client.callTool({ name: 'rterm_echo__upper', arguments: { text: 'x' } }))).toBe(
        'tool_not_exposed: rterm-echo is switched off in Plugboard (not exposed): nothing ran',
      );
      expect(textOf(await again.client.callTool({ name: 'no_such__tool', arguments: {} }))).toBe(
        'not_found: no tool is named "no_such__tool": tools/list names the tools Plugboard offers',
      );
    } finally {
      await again.client.close();
      expect((await other.decisions.setExposed('rterm-echo', undefined, true)).ok).toBe(true);
    }
  });
});
