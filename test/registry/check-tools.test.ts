/**
 * `plugboard check`'s tools line marks what a tool name hides (red team T11): a Cyrillic letter in
 * a Latin name, an invisible character, are shown for what they are, never printed as they are.
 */
import { describe, expect, it } from 'vitest';
import { compareTools } from '../../src/main/plugins/check-tools';
import type { PluginSpec, ToolSpec } from '../../src/shared/plugin';

const spec = { dialect: 'mcp', tools: [], userCommands: [] } as unknown as PluginSpec;
const tool = (name: string) => ({ name }) as ToolSpec;

describe("the check's tools line", () => {
  it('marks a look-alike letter and an invisible character in a name, and leaves plain names alone', () => {
    const item = compareTools(spec, [tool('read_file'), tool('re\u0430d_file'), tool('write\u200bfile')]);
    expect(item.detail).toContain('read_file, re\u0430⟦U+0430⟧d_file');
    expect(item.detail).not.toContain('write\u200bfile');
    expect(item.detail).toMatch(/write⟦[^⟧]+⟧file/);
  });
});
