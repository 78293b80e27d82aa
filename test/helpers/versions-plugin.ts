/**
 * One version of the `versions` plugin (test/fixtures/mcp-versions: an MCP server whose tools are
 * what its tools.json lists) written into a folder: the update tests write one version, then
 * another at the same place, with tools added, removed and changed.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES } from './plugins';

export interface VersionTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export function writeVersionsPlugin(
  dir: string,
  version: string,
  tools: VersionTool[],
  manifest: Record<string, unknown> = {},
): void {
  mkdirSync(dir, { recursive: true });
  copyFileSync(path.join(FIXTURES, 'mcp-versions', 'server.mjs'), path.join(dir, 'server.mjs'));
  writeFileSync(path.join(dir, 'tools.json'), JSON.stringify({ version, tools }));
  writeFileSync(
    path.join(dir, 'plugboard.json'),
    JSON.stringify({
      id: 'versions',
      name: 'Versions',
      version,
      protocol: 'mcp',
      command: ['node', 'server.mjs'],
      persistent: true,
      ...manifest,
    }),
  );
}
