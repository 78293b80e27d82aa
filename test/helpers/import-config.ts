/**
 * A claude_desktop_config.json as people keep one: servers that are scripts in project folders of
 * their own, run by absolute path (copies of the dependency-free mcpb-echo MCP server), with env
 * values, one of them a secret.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES } from './plugins';

export const IMPORT_TOKEN = 'tok-7Hq2LmX9pR4vW8zK3nB6cD1f';

/** A project folder with a package.json and build/index.js; returns the script's path. */
export function serverProject(root: string, name: string): string {
  const dir = path.join(root, 'code', name);
  mkdirSync(path.join(dir, 'build'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, type: 'module' }));
  copyFileSync(path.join(FIXTURES, 'mcpb-echo', 'server', 'index.mjs'), path.join(dir, 'build', 'index.js'));
  return path.join(dir, 'build', 'index.js');
}

/** Writes `<root>/claude_desktop_config.json` naming `servers` (mcpServers entries) as given. */
export function writeClaudeConfig(root: string, servers: Record<string, unknown>): string {
  const file = path.join(root, 'claude_desktop_config.json');
  writeFileSync(file, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
  return file;
}
