/**
 * The check's items, and its judgement of the tools a plugin announces against those its manifest
 * declares (plugins/check.ts runs the checks).
 */
import type { PluginSpec, ToolSpec } from '../../shared/plugin';
import { revealed } from '../../shared/visible-text';

/**
 * Tool names as the check lists them: a letter that only looks Latin, or a character that does
 * not show, marked (red team T11: a Cyrillic "а" in `reаd_file` printed as it was).
 */
const list = (names: string[]): string => names.map((n) => revealed(n, { name: true })).join(', ');

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
      detail: `${declared.length} declared (the protocol announces none): ${list(declared) || 'none'}`,
    };
  }
  const said = announced.map((t) => t.name);
  const missing = declared.filter((n) => !said.includes(n));
  if (spec.dialect === 'mcp' && missing.length === 0) {
    // An MCP server's tools are what tools/list says: the manifest's list is only a promise.
    return {
      name: 'tools',
      status: 'pass',
      detail: `${said.length} announced by the server's tools/list: ${list(said) || 'none'}`,
    };
  }
  // A user command is run as the function of the same name: announcing it is right.
  const commands = spec.userCommands.map((c) => c.name);
  const extra = said.filter((n) => !declared.includes(n) && !commands.includes(n));
  if (missing.length > 0) {
    return {
      name: 'tools',
      status: 'fail',
      detail: `declared in the manifest but not announced by the plugin: ${list(missing)}${extra.length ? `; announced but not declared: ${list(extra)}` : ''}`,
    };
  }
  if (extra.length > 0) {
    return {
      name: 'tools',
      status: 'warn',
      detail: `announced but not declared in the manifest (a model never sees them): ${list(extra)}`,
    };
  }
  return {
    name: 'tools',
    status: 'pass',
    detail: `${declared.length} declared, all announced: ${list(declared)}`,
  };
}
