/**
 * What every manifest reader shares: the result type, field-precise error formatting, and the
 * defaults a PluginSpec starts from.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { z } from 'zod';
import { firstRunLauncher } from '../../host';
import { recordFor } from '../packages/record';
import {
  DEFAULT_TIMEOUTS,
  type JsonSchema,
  type PluginSpec,
  type Timeouts,
  type ToolSpec,
} from '../../../shared/plugin';

export type ManifestResult =
  { ok: true; spec: PluginSpec; warnings: string[] } | { ok: false; file: string; errors: string[] };

/** `functions[2].parameters.type` from a zod path. */
export function formatPath(p: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const seg of p) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out || '(top level)';
}

export function formatIssues(error: z.ZodError): string[] {
  return error.issues.map((i) => {
    const message = i.message.replace(/^Invalid (input|option): /, '');
    return `${formatPath(i.path)}: ${message}`;
  });
}

export function invalid(file: string, errors: string[]): ManifestResult {
  return { ok: false, file, errors };
}

/** A plugin id: lower-case letters, digits, dot, dash and underscore, starting with a letter or digit. */
export const ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * Ids no plugin may take: Plugboard's own tools are named by them in the chat, the CLI's
 * `--json` lines and approval cards (`assistant:ask_user`), and a plugin with one would read as
 * them (red team A10).
 */
export const RESERVED_IDS: ReadonlySet<string> = new Set(['assistant', 'plugboard']);

/**
 * Turns any name into a usable id (folder names, MCPB names). A name in ASCII keeps its readable
 * slug. A name with other characters cannot: `Ｆｉｌｅｓ` would become `files`, the id of another
 * plugin, and every name in Cyrillic or Japanese the same `plugin`. Such a name keeps what it has
 * in common with ASCII (after NFKC folding) and adds a hash of the whole name, so two names never
 * share an id and none takes the id of a plugin named in ASCII.
 */
export function toId(name: string): string {
  const slug = name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '');
  // "Docs (remote)" is docs-remote, not docs-remote-.
  const trimmed = (n: number): string => slug.slice(0, n).replace(/[-.]+$/, '');
  // eslint-disable-next-line no-control-regex -- the test is exactly "ASCII only"
  if (/^[\x00-\x7f]*$/.test(name)) return trimmed(64) || 'plugin';
  const hash = createHash('sha256').update(name.normalize('NFC')).digest('hex').slice(0, 8);
  return `${trimmed(55) || 'plugin'}-${hash}`;
}

/**
 * MCP over stdio ends by closing stdin, and the MCP SDK's own client waits 2 s for the exit before
 * SIGTERM. Python servers need that: FastMCP exited 476-593 ms after stdin closed here, past the
 * 500 ms the other protocols get after their `shutdown`.
 */
export const MCP_TIMEOUTS: Partial<Timeouts> = { stopGraceMs: 2000 };

/**
 * A remote MCP server: every ping is an HTTP request to someone else's server, so idle pings are
 * spaced out (reachability, not a frozen process, is what they watch), and a slow network gets a
 * longer first answer. Two missed pings still mark it unreachable.
 */
export const REMOTE_MCP_TIMEOUTS: Partial<Timeouts> = {
  pingIntervalMs: 15_000,
  pingTimeoutMs: 5000,
  handshakeMs: 15_000,
  launchMs: 10_000,
  stopGraceMs: 2000,
};

/**
 * A command that starts with a first-run launcher (`npx -y pkg`, `uvx pkg`, `docker run`) gets a
 * handshake deadline long enough for the download, unless the manifest sets its own.
 */
export function withLauncherAllowance(
  command: string[],
  timeouts: Timeouts,
  explicitHandshake = false,
  dir?: string,
): Timeouts {
  if (explicitHandshake) return timeouts;
  // An installed package downloads nothing, but a Python server still imports its packages on
  // start: mcp-server-time took 3 s here on an idle machine and 14 s on a loaded one.
  const installed = dir !== undefined && recordFor(dir, command) !== null;
  const wanted = installed ? INSTALLED_PACKAGE_HANDSHAKE_MS : (firstRunLauncher(command)?.handshakeMs ?? 0);
  return timeouts.handshakeMs >= wanted ? timeouts : { ...timeouts, handshakeMs: wanted };
}

/** The handshake deadline of a server started from its installed package (packages/). */
export const INSTALLED_PACKAGE_HANDSHAKE_MS = 30_000;

/**
 * A first-run launcher downloads what it runs (npx asks the registry on every start): the plugin
 * requests the network, so the person sees it before granting, and the sandbox lets it through.
 */
export function withLauncherCapabilities(command: string[], capabilities: string[], dir?: string): string[] {
  return launcherHere(command, dir) && !capabilities.includes('net') ? [...capabilities, 'net'] : capabilities;
}

/**
 * The first-run launcher of a command, unless its package is installed in the plugin folder
 * `dir` (packages/record.ts): then it runs from there, with neither a download nor the network.
 */
function launcherHere(command: string[], dir: string | undefined): ReturnType<typeof firstRunLauncher> {
  if (dir !== undefined && recordFor(dir, command)) return null;
  return firstRunLauncher(command);
}

export function withTimeouts(overrides: Partial<Timeouts> | undefined, base: Partial<Timeouts> = {}): Timeouts {
  return { ...DEFAULT_TIMEOUTS, ...base, ...(overrides ?? {}) };
}

/** The fields every spec needs, with the defaults a manifest does not have to give. */
export function baseSpec(
  manifestPath: string,
  fields: Pick<PluginSpec, 'id' | 'name' | 'dialect' | 'manifestFormat' | 'command'> & Partial<PluginSpec>,
): PluginSpec {
  const dir = path.dirname(manifestPath);
  return {
    version: '0.0.0',
    description: '',
    framing: 'ndjson',
    manifestPath,
    dir,
    cwd: dir,
    env: {},
    persistent: true,
    tools: [],
    capabilities: [],
    timeouts: withTimeouts(undefined),
    settings: [],
    rpcFlavor: 'generic',
    userCommands: [],
    autoApprovedTools: [],
    ...fields,
  };
}

export const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: 'object', properties: {} };

export function tool(
  name: string,
  description: string,
  parameters: JsonSchema = EMPTY_OBJECT_SCHEMA,
  tags?: string[],
): ToolSpec {
  return tags && tags.length > 0 ? { name, description, parameters, tags } : { name, description, parameters };
}
