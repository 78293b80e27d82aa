/**
 * The check's items, and its judgement of the tools a plugin announces against those its manifest
 * declares (plugins/check.ts runs the checks).
 */
import type { PluginSpec, ToolSpec } from '../../shared/plugin';

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

export interface CheckItem {
  name: 'manifest' | 'launch' | 'handshake' | 'tools' | 'ping' | 'shutdown' | 'cleanup';
  status: CheckStatus;
  detail: string;
}

export function compareTools(spec: PluginSpec, announced: ToolSpec[] | undefined): CheckItem {
  const declared = spec.tools.map((t) => t.name);
  if (!announced) {
    return {
      name: 'tools',
      status: 'pass',
      detail: `${declared.length} declared (the protocol announces none): ${declared.join(', ') || 'none'}`,
    };
  }
  const said = announced.map((t) => t.name);
  const missing = declared.filter((n) => !said.includes(n));
  if (spec.dialect === 'mcp' && missing.length === 0) {
    // An MCP server's tools are what tools/list says: the manifest's list is only a promise.
    return {
      name: 'tools',
      status: 'pass',
      detail: `${said.length} announced by the server's tools/list: ${said.join(', ') || 'none'}`,
    };
  }
  // A user command is run as the function of the same name: announcing it is right.
  const commands = spec.userCommands.map((c) => c.name);
  const extra = said.filter((n) => !declared.includes(n) && !commands.includes(n));
  if (missing.length > 0) {
    return {
      name: 'tools',
      status: 'fail',
      detail: `declared in the manifest but not announced by the plugin: ${missing.join(', ')}${extra.length ? `; announced but not declared: ${extra.join(', ')}` : ''}`,
    };
  }
  if (extra.length > 0) {
    return {
      name: 'tools',
      status: 'warn',
      detail: `announced but not declared in the manifest (a model never sees them): ${extra.join(', ')}`,
    };
  }
  return {
    name: 'tools',
    status: 'pass',
    detail: `${declared.length} declared, all announced: ${declared.join(', ')}`,
  };
}
