/**
 * Agent plugins are models in the terminal too: `plugboard models list` names each installed
 * Mehrhof agent plugin as `agent:<id>` (kind agent), usable or not and why, and `plugboard chat
 * --model agent:<id>` runs a turn through it. Real CLI processes, real agent-plugin processes
 * (the tool-agent fixture plays a model over the Mehrhof protocol), a real data directory.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { pbIn, pluginsOf } from './chat-helpers';

let data: string;
const pb = (...args: string[]) => pbIn(data, args);

beforeAll(async () => {
  data = path.join(tmpDir('cli-models-agents'), 'data');
  for (const fixture of ['mehrhof-tool-agent', 'mehrhof-agent']) {
    const r = await pb('plugins', 'install', path.join(FIXTURES, fixture));
    expect(r.code, r.stderr).toBe(0);
  }
  const off = await pb('plugins', 'disable', 'fixture-agent');
  expect(off.code, off.stderr).toBe(0);
});

afterAll(() => cleanupFixtures());

describe('agent plugins as models in the CLI', () => {
  it('models list names each installed agent plugin as agent:<id>, and says why one cannot answer', async () => {
    const json = await pb('models', 'list', '--json');
    expect(json.code, json.stderr).toBe(0);
    expect(json.lines[0]?.models).toEqual([]);
    expect(json.lines[0]?.agents).toEqual([
      {
        name: 'agent:fixture-agent',
        kind: 'agent',
        plugin: 'fixture-agent',
        title: 'fixture-agent',
        available: false,
        reason: 'disabled (plugboard plugins enable fixture-agent)',
      },
      { name: 'agent:tool-agent', kind: 'agent', plugin: 'tool-agent', title: 'tool-agent', available: true },
    ]);
    const human = await pb('models', 'list');
    expect(human.code, human.stderr).toBe(0);
    const lines = human.stdout.split('\n');
    expect(lines).toContain('Agent plugins, models too (plugboard chat --model NAME):');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}agent:tool-agent +agent +tool-agent +yes$/));
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {2}agent:fixture-agent +agent +fixture-agent +no: disabled \(plugboard plugins enable fixture-agent\)$/,
      ),
    );
    // Listing starts no plugin.
    expect(pluginsOf(data)).toEqual([]);
  });

  it('chat --model agent:<id> runs a turn through the agent plugin, with no provider configured', async () => {
    const r = await pb('chat', 'hello there', '--model', 'agent:tool-agent', '--json');
    expect(r.code, r.stderr).toBe(0);
    const pieces = r.lines.filter((l) => l.type === 'text').map((l) => String(l.delta));
    // Streamed word by word, as the agent sent it.
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('').trim()).toBe('You said: hello there');
    expect(r.lines.at(-1)).toEqual({
      type: 'done',
      text: expect.stringMatching(/^You said: hello there\s*$/),
      conversation: expect.any(String),
    });
    // The agent's process was stopped before the command exited.
    expect(pluginsOf(data)).toEqual([]);
  });

  it('a disabled agent plugin is refused as a model, and the error says so', async () => {
    const r = await pb('chat', 'hello', '--model', 'agent:fixture-agent', '--json');
    expect(r.code).toBe(1);
    expect(r.lines.at(-1)).toEqual(expect.objectContaining({ type: 'error' }));
    expect(String(r.lines.at(-1)?.message)).toMatch(/fixture-agent/);
  });
});
