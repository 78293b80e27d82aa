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

describe('palette ranking', () => {
  // The bundled plugins as they are: fuzzy scores alone put terminal and files tools among hello's.
  const bundled = [
    entry(
      'terminal',
      'Terminal',
      'run',
      'Run one shell command (bash -lc on Linux and macOS, PowerShell on Windows) and stream its output.',
    ),
    entry(
      'terminal',
      'Terminal',
      'open_shell',
      'Open an interactive shell for the user: what they type next goes straight to the shell.',
    ),
    entry(
      'files',
      'Files',
      'write',
      'Create a text file, or replace its whole content. Missing parent folders are created.',
    ),
    entry(
      'files',
      'Files',
      'list',
      'List the files and folders in a folder. Without a path, list the folders shared with this plugin.',
    ),
    entry('hello', 'Hello', 'count', 'Count from 1 up to a number, streaming one line per number.'),
    entry('hello', 'Hello', 'say_hello', 'Greet the user, by name when one is given.'),
    entry('hello', 'Hello', 'start_conversation', 'Start a direct conversation with the user (passthrough).'),
    entry('todo', 'Todo list', 'list_items', 'Items'),
  ];
  const ranked = (query: string): string[] =>
    searchPalette(bundled, paletteIndex(bundled), query).map((e) => `${e.plugin}:${e.name}`);

  it('offers only the plugin named exactly, not tools whose descriptions look alike', () => {
    expect(ranked('hello').sort()).toEqual(['hello:count', 'hello:say_hello', 'hello:start_conversation']);
    expect(ranked('Hello')[0]).toMatch(/^hello:/);
  });

  it('puts exact tool names, then prefixes, before fuzzy matches', () => {
    const r = ranked('list');
    expect(r[0]).toBe('files:list');
    expect(r[1]).toBe('todo:list_items');
  });

  it('ranks a plugin prefix before other plugins and drops the look-alikes', () => {
    expect(ranked('ter').sort()).toEqual(['terminal:open_shell', 'terminal:run']);
    expect(ranked('hel:')).toHaveLength(3);
    expect(ranked('files:wr')).toEqual(['files:write']);
  });

  it('keeps fuzzy matches when no name matches what was typed (a typo)', () => {
    expect(ranked('helo')[0]).toMatch(/^hello:/);
    expect(ranked('stream').length).toBeGreaterThan(0);
  });
});
