/**
 * "Use your plugins in other apps": the snippet each app's MCP config file takes to run
 * `plugboard mcp` on this data folder, with the command as an absolute path (an app started from a
 * dock or menu has a short PATH, and `npx`/`node` are then not found) and the data folder
 * spelled out (the app's data folder is not the CLI's default). The same snippets are printed by
 * `plugboard mcp --print-config APP` and shown, with Copy, in the app's Settings. Pure: the
 * platform is given, so the CLI prints them without loading the rest of Plugboard.
 */
import type { McpClientSnippet } from './views';

export const MCP_CLIENT_APPS = ['claude', 'cursor', 'vscode'] as const;
export type McpClientApp = (typeof MCP_CLIENT_APPS)[number];

/** How this installation of Plugboard runs `plugboard mcp` on its data folder. */
export interface McpLaunch {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** The server's entry in an app's config: command, arguments, and environment where needed. */
function entry(launch: McpLaunch, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...extra,
    command: launch.command,
    args: launch.args,
    ...(launch.env && Object.keys(launch.env).length > 0 ? { env: launch.env } : {}),
  };
}

export function mcpClientSnippet(app: McpClientApp, launch: McpLaunch, platform: string): McpClientSnippet {
  const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;
  switch (app) {
    case 'claude':
      return {
        app,
        label: 'Claude Desktop',
        file: claudeConfigFile(platform),
        text: json({ mcpServers: { plugboard: entry(launch) } }),
      };
    case 'cursor':
      return {
        app,
        label: 'Cursor',
        file: '~/.cursor/mcp.json (every project), or .cursor/mcp.json in one project',
        text: json({ mcpServers: { plugboard: entry(launch) } }),
      };
    case 'vscode':
      return {
        app,
        label: 'VS Code',
        file: '.vscode/mcp.json in a workspace, or your user mcp.json (the command "MCP: Open User Configuration")',
        text: json({ servers: { plugboard: entry(launch, { type: 'stdio' }) } }),
      };
  }
}

export function mcpClientSnippets(launch: McpLaunch, platform: string): McpClientSnippet[] {
  return MCP_CLIENT_APPS.map((app) => mcpClientSnippet(app, launch, platform));
}

function claudeConfigFile(platform: string): string {
  if (platform === 'darwin') return '~/Library/Application Support/Claude/claude_desktop_config.json';
  if (platform === 'win32') return '%APPDATA%\\Claude\\claude_desktop_config.json';
  return '~/.config/Claude/claude_desktop_config.json';
}
