import { describe, expect, it } from 'vitest';
import type { PaletteEntry } from '../../src/shared/contract';
import { paletteIndex, searchPalette } from '../../src/renderer/src/stores/palette-search';

const entry = (plugin: string, pluginName: string, name: string, description: string): PaletteEntry => ({
  kind: 'tool',
  plugin,
  pluginName,
  name,
  description,
  parameters: { type: 'object', properties: {} },
  autoApproved: false,
});

const entries = [
  entry('hello', 'Hello', 'count', 'Count out loud'),
  entry('hello', 'Hello', 'say_hello', 'Greet someone'),
  entry('todo', 'Todo list', 'count', 'How many items are open'),
  entry('files', 'Files', 'read_file', 'Read a file'),
];

function names(query: string): string[] {
  return searchPalette(entries, paletteIndex(entries), query).map((e) => `${e.plugin}:${e.name}`);
}

describe('palette search', () => {
  it('matches plugin:tool as the plugin and the tool, each fuzzily', () => {
    expect(names('hello:count')).toEqual(['hello:count']);
    expect(names('todo:cnt')).toEqual(['todo:count']);
    expect(names('helo:say')).toEqual(['hello:say_hello']);
  });

  it('takes an empty side as any: all of a plugin’s tools, or a tool in every plugin', () => {
    expect(names('hello:').sort()).toEqual(['hello:count', 'hello:say_hello']);
    expect(names(':count').sort()).toEqual(['hello:count', 'todo:count']);
  });

  it('searches names, plugins and descriptions without a colon, and lists everything for nothing', () => {
    expect(names('read')[0]).toBe('files:read_file');
    expect(names('')).toHaveLength(entries.length);
  });
});
