/**
 * What an MCP server asks of Plugboard, through a real server of ours (test/fixtures/mcp-asks,
 * the official SDK's McpServer over stdio) in a real child process: its roots, a form for the
 * person, a reply from the model, and list_changed for its prompts and resources. The answers
 * come from the test, standing where the assistant stands in the app (test/assistant covers the
 * assistant's side); what the server received is what it returns or records.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ElicitRequest, SampleRequest, ServerAsks } from '../../src/main/host/asks';
import { failure, ok } from '../../src/shared/failures';
import { collect, expectFailure, specOf } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { FIXTURES, tmpDir } from '../helpers/plugins';

const host = useTestHost();
afterEach(() => (host.asks = undefined));

/** The fixture with its record file, and the binding's granted folders as its roots. */
async function addAsks(roots: string[] = []): Promise<{ record: string }> {
  const record = path.join(tmpDir('mcp-asks'), 'record.jsonl');
  const base = specOf(path.join(FIXTURES, 'mcp-asks'));
  const spec = { ...base, command: [...base.command, '--record', record] };
  await host.add(spec, { binding: { ...(await host.bindingFor(spec)), roots } });
  return { record };
}

/** The lines the server recorded, once one matches `pick` (or fails after 10 s). */
async function recordedLine(
  file: string,
  pick: (v: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  const end = Date.now() + 10_000;
  for (;;) {
    const lines = existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>)
      : [];
    const hit = lines.find(pick);
    if (hit) return hit;
    if (Date.now() > end) throw new Error(`the server recorded no such line; it recorded: ${JSON.stringify(lines)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function dataOf(r: Awaited<ReturnType<typeof collect>>): unknown {
  if (!r.outcome.ok) throw new Error(`the call failed: ${r.outcome.code}: ${r.outcome.message}`);
  const d = r.outcome.value.data;
  return typeof d === 'string' ? JSON.parse(d) : d;
}

describe('MCP roots', () => {
  it('answers roots/list with the granted folders as file:// URIs, and tells the server when they change', async () => {
    const a = path.join(tmpDir('roots'), 'projects');
    mkdirSync(a, { recursive: true });
    const b = path.join(tmpDir('roots'), 'with space');
    mkdirSync(b, { recursive: true });
    const { record } = await addAsks([a]);
    expect(dataOf(await collect(host.get('mcp-asks')!, 'roots'))).toEqual({
      roots: [{ uri: pathToFileURL(a).href, name: 'projects' }],
    });

    const binding = await host.bindingFor(specOf(path.join(FIXTURES, 'mcp-asks')));
    host.rebind('mcp-asks', { ...binding, roots: [a, b] });
    const changed = await recordedLine(record, (l) => l.rootsChanged !== undefined);
    expect(changed.rootsChanged).toEqual({
      roots: [
        { uri: pathToFileURL(a).href, name: 'projects' },
        { uri: pathToFileURL(b).href, name: 'with space' },
      ],
    });
  });

  it('gives no roots where none were granted', async () => {
    await addAsks();
    expect(dataOf(await collect(host.get('mcp-asks')!, 'roots'))).toEqual({ roots: [] });
  });
});

describe('MCP elicitation', () => {
  it('hands the form to whoever answers, with the conversation of the call, and returns the answer', async () => {
    const asked: ElicitRequest[] = [];
    host.asks = {
      elicit: async (req) => {
        asked.push(req);
        return { action: 'accept', content: { name: 'Ada', guests: 2 } };
      },
      sample: () => Promise.resolve(failure('invalid_state', 'unused')),
    };
    await addAsks();
    const r = await collect(host.get('mcp-asks')!, 'book', { restaurant: 'Chez Marie' }, { owner: 'conversation-7' });
    expect(dataOf(r)).toEqual({ action: 'accept', content: { name: 'Ada', guests: 2 } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toEqual(
      expect.objectContaining({
        pluginId: 'mcp-asks',
        conversationId: 'conversation-7',
        message: 'Booking a table at Chez Marie: for whom, and how many?',
      }),
    );
    expect(asked[0]?.schema).toEqual(
      expect.objectContaining({
        required: ['name', 'guests'],
        properties: expect.objectContaining({ guests: expect.objectContaining({ type: 'integer' }) }),
      }),
    );
  });

  it('declines where nobody can answer (no owner serves the requests)', async () => {
    await addAsks();
    expect(dataOf(await collect(host.get('mcp-asks')!, 'book', { restaurant: 'X' }))).toEqual({ action: 'decline' });
  });

  it('holds the call’s inactivity deadline while the person fills the form', async () => {
    // The person takes longer than the call may be quiet: the call must not time out meanwhile.
    host.asks = {
      elicit: () => new Promise((resolve) => setTimeout(() => resolve({ action: 'cancel' }), 900)),
      sample: () => Promise.resolve(failure('invalid_state', 'unused')),
    };
    await addAsks();
    const r = await collect(host.get('mcp-asks')!, 'book', { restaurant: 'X' }, { inactivityMs: 300 });
    expect(dataOf(r)).toEqual({ action: 'cancel' });
  });
});

describe('MCP sampling', () => {
  const asks = (sample: ServerAsks['sample']): ServerAsks => ({
    elicit: () => Promise.resolve({ action: 'decline' }),
    sample,
  });

  it('returns the reply as {role, content, model, stopReason}, from the server’s messages and system prompt', async () => {
    const got: SampleRequest[] = [];
    host.asks = asks(async (req) => {
      got.push(req);
      return ok({ text: 'Cats sleep a lot.', model: 'scripted-1', stopReason: 'endTurn' });
    });
    const { record } = await addAsks();
    const r = await collect(
      host.get('mcp-asks')!,
      'summarize',
      { text: 'Cats sleep sixteen hours a day.' },
      { owner: 'c1' },
    );
    expect(dataOf(r)).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Cats sleep a lot.' },
      model: 'scripted-1',
      stopReason: 'endTurn',
    });
    expect(got[0]).toEqual(
      expect.objectContaining({
        conversationId: 'c1',
        systemPrompt: 'You write one-line summaries.',
        maxTokens: 60,
        messages: [{ role: 'user', text: 'Summarize in one line: Cats sleep sixteen hours a day.' }],
      }),
    );
    expect(await recordedLine(record, (l) => l.sampling !== undefined)).toBeTruthy();
  });

  it('answers a refusal with a JSON-RPC error that says why', async () => {
    host.asks = asks(() => Promise.resolve(failure('cancelled', 'the person denied the sampling request')));
    const { record } = await addAsks();
    const f = expectFailure((await collect(host.get('mcp-asks')!, 'summarize', { text: 'x' })).outcome);
    expect(f.message).toContain('the person denied the sampling request');
    const line = await recordedLine(record, (l) => l.samplingError !== undefined);
    expect(line.samplingError).toEqual(
      expect.objectContaining({ message: expect.stringContaining('the person denied the sampling request') }),
    );
  });
});

describe('MCP prompts and resources list_changed', () => {
  it('reports each change as a features event, and the lists read afterwards have the new entries', async () => {
    const events: string[] = [];
    const sub = host.onDidChangeFeatures((e) => events.push(`${e.pluginId}:${e.kind}`));
    await addAsks();
    const sup = host.get('mcp-asks')!;
    await collect(sup, 'add_prompt');
    await collect(sup, 'add_resource');
    const end = Date.now() + 10_000;
    while (events.length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    sub.dispose();
    expect(events).toEqual(['mcp-asks:prompts', 'mcp-asks:resources']);
    const features = host.features('mcp-asks')!;
    const prompts = await features.prompts();
    expect(prompts.ok && prompts.value.map((p) => p.name)).toEqual(['greet', 'extra_1']);
    const resources = await features.resources();
    expect(resources.ok && resources.value.map((x) => x.uri)).toEqual(['notes://readme', 'notes://note_2']);
  });
});
