/**
 * What the palette lists besides the server's tools, and what it says of them: MCP prompts as
 * entries (with their arguments as a form), the state of a tool's plugin, and in the Tools tab
 * what the exposed declarations cost every request.
 */
import { describe, expect, it } from 'vitest';
import type { PluginView, ToolView } from '../../src/shared/contract';
import type { PromptView } from '../../src/shared/mcp-features';
import { costLine, exposedTokens, tokensText } from '../../src/renderer/src/features/plugins/tool-cost';
import { fieldsOf, toArgs } from '../../src/renderer/src/features/chat/schema-form';
import { entryStatus } from '../../src/renderer/src/stores/palette-status';
import { hasParameters } from '../../src/renderer/src/stores/palette-entry';
import { promptArgs, promptEntry, promptSources, typedPrompt } from '../../src/renderer/src/stores/prompt-entries';

const plugin = (
  over: Partial<PluginView> & { state?: PluginView['health']['state']; code?: string } = {},
): PluginView => {
  const { state = 'ready', code, ...rest } = over;
  return {
    id: 'notes',
    name: 'Notes',
    version: '1.0.0',
    description: '',
    source: 'installed',
    dialect: 'mcp',
    persistent: true,
    error: null,
    enabled: true,
    exposed: true,
    toolCount: 1,
    exposedCount: 1,
    requested: [],
    granted: [],
    needsSettings: [],
    health: {
      pluginId: 'notes',
      state,
      reason: '',
      pingRttMs: null,
      restarts: 0,
      pid: null,
      at: 0,
      ...(code ? { failure: { code, message: 'x' } } : {}),
    } as PluginView['health'],
    ...rest,
  };
};

const releaseNotes: PromptView = {
  name: 'release_notes',
  title: 'Release notes',
  description: 'Draft the release notes of a version',
  arguments: [
    { name: 'version', description: 'The version', required: true },
    { name: 'audience', required: false },
  ],
};

describe('MCP prompts as palette entries', () => {
  it('are entries of kind prompt, with their arguments as a schema of strings the form asks for', () => {
    const e = promptEntry(plugin(), releaseNotes);
    expect(e).toEqual(
      expect.objectContaining({
        kind: 'prompt',
        plugin: 'notes',
        pluginName: 'Notes',
        name: 'release_notes',
        description: 'Draft the release notes of a version',
      }),
    );
    expect(e.parameters).toEqual({
      type: 'object',
      properties: { version: { type: 'string', description: 'The version' }, audience: { type: 'string' } },
      required: ['version'],
    });
    expect(hasParameters(e)).toBe(true);
    const fields = fieldsOf(e.parameters);
    expect(fields.map((f) => [f.key, f.required])).toEqual([
      ['version', true],
      ['audience', false],
    ]);
    // The form refuses a missing required argument before the server is asked.
    expect(toArgs(fields, { version: '', audience: '' }).ok).toBe(false);
  });

  it('without arguments need no form (choosing one fills the composer at once)', () => {
    const e = promptEntry(plugin(), { name: 'standup', arguments: [] });
    expect(hasParameters(e)).toBe(false);
    expect(e.description).toBe('');
    expect(promptEntry(plugin(), { name: 'x', title: 'Only a title', arguments: [] }).description).toBe('Only a title');
  });

  it('are read only from enabled MCP plugins that run (listing them never starts one)', () => {
    const ids = promptSources([
      plugin({ id: 'running' }),
      plugin({ id: 'busy', state: 'busy' }),
      plugin({ id: 'stopped', state: 'stopped' }),
      plugin({ id: 'disabled', enabled: false }),
      plugin({ id: 'gassist', dialect: 'gassist-v2' }),
    ]).map((p) => p.id);
    expect(ids).toEqual(['running', 'busy']);
  });

  it('typed as /plugin:name (Tab completes them) are found, so the text is not sent as a call', () => {
    const entries = [
      promptEntry(plugin(), releaseNotes),
      { ...promptEntry(plugin(), { name: 'note', arguments: [] }), kind: 'tool' as const },
    ];
    expect(typedPrompt('/notes:release_notes', entries)?.name).toBe('release_notes');
    expect(typedPrompt('/notes:release_notes version=2 ', entries)?.name).toBe('release_notes');
    // A tool of the same plugin, another plugin's name, or words are not prompts.
    expect(typedPrompt('/notes:note', entries)).toBeUndefined();
    expect(typedPrompt('/other:release_notes', entries)).toBeUndefined();
    expect(typedPrompt('release the notes', entries)).toBeUndefined();
  });

  it('send their arguments as strings, the empty ones left out', () => {
    expect(promptArgs({ version: '2.1', audience: '', n: 3, gone: undefined })).toEqual({ version: '2.1', n: '3' });
  });
});

describe('the state of a tool’s plugin in the palette', () => {
  it('says failed with the failure’s code, needs settings with their names, and stopped for a stopped persistent plugin', () => {
    expect(entryStatus(plugin({ state: 'failed', code: 'launch_failed' }))).toEqual({
      badge: 'failed',
      description: 'failed: launch_failed',
      tone: 'bad',
    });
    expect(entryStatus(plugin({ state: 'crashed' }))?.description).toBe('failed: crashed');
    expect(entryStatus(plugin({ state: 'stopped', needsSettings: ['API_KEY'] }))).toEqual({
      badge: 'settings',
      description: 'needs settings (API_KEY)',
      tone: 'warn',
    });
    expect(entryStatus(plugin({ state: 'stopped' }))).toEqual({
      badge: 'stopped',
      description: 'plugin stopped',
      tone: 'idle',
    });
  });

  it('says nothing of a plugin that runs, or of one that starts for each call', () => {
    expect(entryStatus(plugin())).toBeNull();
    expect(entryStatus(plugin({ state: 'busy' }))).toBeNull();
    expect(entryStatus(plugin({ state: 'stopped', persistent: false }))).toBeNull();
    expect(entryStatus(undefined)).toBeNull();
  });
});

describe('what the exposed tools cost every request', () => {
  const tool = (name: string, declarationTokens: number, exposed: boolean, userCommand = false): ToolView =>
    ({
      name,
      description: '',
      parameters: {},
      exposed,
      autoApproved: false,
      policy: 'ask',
      defaultPolicy: 'ask',
      userCommand,
      declarationTokens,
    }) as ToolView;

  it('adds the exposed tools only, and a switch flipped changes the total', () => {
    const tools = [tool('a', 120, true), tool('b', 1300, true), tool('c', 50, false)];
    expect(exposedTokens(tools)).toBe(1420);
    expect(costLine(tools)).toBe('add ~1,420 tokens to every request');
    const flipped = tools.map((t) => (t.name === 'c' ? { ...t, exposed: true } : t));
    expect(costLine(flipped)).toBe('add ~1,470 tokens to every request');
    expect(costLine(tools.map((t) => ({ ...t, exposed: false })))).toBe('add nothing to requests (none is exposed)');
  });

  it('never counts a user command (it is not offered to a model)', () => {
    expect(exposedTokens([tool('cmd', 0, true, true), tool('t', 40, true)])).toBe(40);
    expect(tokensText(1)).toBe('~1 token');
  });
});
