/**
 * `plugboard chat` with no screen to show a form on: an MCP server's form (elicitation) is
 * declined at once, and its sampling request refused unless --approve all allows it. The real CLI
 * process with an installed MCP server of ours (test/fixtures/mcp-asks, the official SDK's
 * McpServer, sandboxed), against the scripted model server in this process (no language model
 * can run here); what the server received is what its tool returns to the model.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, FIXTURES, REPO, tmpDir } from '../helpers/plugins';
import { toolResults } from '../model-server/requests';
import { ModelServer } from '../model-server/server';
import { text, toolCalls } from '../model-server/steps';
import { pbIn } from './chat-helpers';

let data: string;
let model: ModelServer;
const pb = (...args: string[]) => pbIn(data, args);

beforeAll(async () => {
  data = path.join(tmpDir('cli-chat-asks'), 'data');
  model = await ModelServer.start();
  expect(
    (
      await pb(
        'models',
        'add',
        'Scripted',
        '--provider',
        'openai-compatible',
        '--base-url',
        model.baseURL,
        '--model',
        'scripted-model',
      )
    ).code,
  ).toBe(0);
  expect((await pb('plugins', 'install', path.join(FIXTURES, 'mcp-asks'))).code).toBe(0);
  // The person allowed these tools for models, so the calls run without a prompt (an MCP
  // server's tools are known once it has run).
  const registry = await PluginRegistry.open({ dataDir: data, nodeModules: path.join(REPO, 'node_modules') });
  expect((await registry.start('mcp-asks')).ok).toBe(true);
  for (const tool of ['book', 'summarize'])
    expect((await registry.decisions.setToolPolicy('mcp-asks', tool, 'allow')).ok).toBe(true);
  await registry.shutdown();
  registry.dispose();
});

afterAll(async () => {
  await model.close();
  cleanupFixtures();
});

it('declines a server’s form without a terminal (--approve none), and the server hears decline', async () => {
  model.script(
    toolCalls({ id: 'call_book', name: 'mcp_asks__book', arguments: { restaurant: 'Chez Marie' } }),
    text('It was declined.'),
  );
  const r = await pb('chat', 'Book a table', '--json');
  expect(r.code, r.stderr).toBe(0);
  expect(toolResults(model.modelCalls.at(-1)!)[0]).toEqual(
    expect.objectContaining({ id: 'call_book', text: '{"action":"decline"}' }),
  );
});

it('refuses sampling without anyone to approve it, and --approve all lets the model write the reply', async () => {
  model.script(
    toolCalls({ id: 'call_sum', name: 'mcp_asks__summarize', arguments: { text: 'Cats sleep.' } }),
    text('No summary.'),
  );
  const none = await pb('chat', 'Summarize', '--json');
  expect(none.code, none.stderr).toBe(0);
  expect(toolResults(model.modelCalls.at(-1)!)[0]?.text).toMatch(
    /sampling failed: .*sampling is not allowed here \(nobody is there to approve it\)/,
  );

  model.script(
    toolCalls({ id: 'call_sum2', name: 'mcp_asks__summarize', arguments: { text: 'Cats sleep.' } }),
    text('Cats nap.'),
    text('Summarized.'),
  );
  const all = await pb('chat', 'Summarize', '--approve', 'all', '--json');
  expect(all.code, all.stderr).toBe(0);
  const result = toolResults(model.modelCalls.at(-1)!)[0]?.text ?? '';
  expect(JSON.parse(result)).toEqual({
    role: 'assistant',
    content: { type: 'text', text: 'Cats nap.' },
    model: 'scripted-model',
    stopReason: 'endTurn',
  });
});
