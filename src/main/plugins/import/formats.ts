/**
 * The MCP server lists other apps keep, read into one shape:
 *   - Claude Desktop `claude_desktop_config.json`, Cursor `.cursor/mcp.json`, Claude Code `.mcp.json`:
 *     `{mcpServers: {name: {command, args, env}}}`, remote ones `{type?, url, headers}`;
 *   - VS Code `.vscode/mcp.json`: `{servers: {name: {type: stdio|http|sse, command, args, env, url,
 *     headers}}, inputs: [{id, type, description, password}]}` (also `mcp.servers` in settings.json);
 *   - Cherry Studio's JSON export (Settings → MCP → Edit JSON): `{mcpServers: {<id>: {name, type:
 *     stdio|sse|streamableHttp|inMemory, command, args, env, baseUrl, headers, isActive}}}`;
 *   - 5ire's `mcp.json`: `{mcpServers: {key: {name, description, command | url, args, env, headers,
 *     isActive}}}`.
 * Every field is checked, and a wrong one is named with its line.
 */
import path from 'node:path';
import type { JsoncDoc, Located } from './jsonc';

export type SourceApp =
  | 'claude-desktop'
  | 'cursor'
  | 'claude-code'
  | 'vscode'
  | 'cherry-studio'
  | '5ire'
  | 'mcp-config'
  /** An entry of the catalog (plugins/catalog/): its server.json, read into the same shape. */
  | 'mcp-registry';

export interface ImportedServer {
  /** The key in the file. */
  key: string;
  /** The name to show: the entry's `name` where it has one (Cherry Studio keys are random ids). */
  name: string;
  description?: string;
  transport: 'stdio' | 'http' | 'sse' | 'in-memory';
  command?: string;
  args: string[];
  env: Record<string, string>;
  url?: string;
  headers: Record<string, string>;
  /** Switched off in the app it comes from (`isActive: false`, `disabled: true`). */
  disabled: boolean;
  /** Set but not read: `envFile`, `cwd`. */
  ignored: string[];
  at: Located;
  /** The server's own version, where the source says it (a catalog entry): the plugin's version. */
  version?: string;
}

/** A VS Code input: `${input:id}` in a value is asked of the person when the server starts. */
export interface ImportedInput {
  id: string;
  description: string;
  password: boolean;
}

export type FormatResult =
  | { ok: true; app: SourceApp; servers: ImportedServer[]; inputs: ImportedInput[] }
  | { ok: false; at: Located; field: string; message: string };

type Path = Array<string | number>;
type Bad = Extract<FormatResult, { ok: false }>;

/** A field's problem while a server is read, thrown to the loop that reads the file. */
class FieldProblem extends Error {
  constructor(readonly bad: Bad) {
    super(bad.message);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fieldName(p: Path): string {
  return p.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}

export function readServers(file: string, doc: JsoncDoc): FormatResult {
  const bad = (p: Path, message: string): Bad => ({
    ok: false,
    at: doc.at(p),
    field: fieldName(p) || '(top level)',
    message,
  });
  const top = doc.value;
  if (!isObject(top)) return bad([], 'expected an object');
  const nestedVsCode = isObject(top.mcp) && isObject(top.mcp.servers);
  const listKey: Path | null = isObject(top.mcpServers)
    ? ['mcpServers']
    : isObject(top.servers)
      ? ['servers']
      : nestedVsCode
        ? ['mcp', 'servers']
        : null;
  if (!listKey) {
    if ('mcpServers' in top) return bad(['mcpServers'], 'expected an object of servers by name');
    if ('servers' in top) return bad(['servers'], 'expected an object of servers by name');
    return bad(
      [],
      'no MCP servers here: expected "mcpServers" (Claude Desktop, Cursor, Cherry Studio, 5ire) or "servers" (VS Code)',
    );
  }
  const list = (
    listKey.length === 1 ? top[listKey[0] as string] : (top.mcp as Record<string, unknown>).servers
  ) as Record<string, unknown>;
  const servers: ImportedServer[] = [];
  for (const [key, raw] of Object.entries(list)) {
    const at: Path = [...listKey, key];
    if (!isObject(raw)) return bad(at, 'expected an object');
    try {
      servers.push(readServer(key, raw, at, doc, bad));
    } catch (e) {
      if (e instanceof FieldProblem) return e.bad;
      throw e;
    }
  }
  const inputs = readInputs(top, doc);
  if (!Array.isArray(inputs)) return inputs;
  return { ok: true, app: guessApp(file, listKey, Object.values(list)), servers, inputs };
}

function readServer(
  key: string,
  raw: Record<string, unknown>,
  at: Path,
  doc: JsoncDoc,
  bad: (p: Path, message: string) => Bad,
): ImportedServer {
  const fail = (p: Path, message: string): never => {
    throw new FieldProblem(bad(p, message));
  };
  const str = (field: string): string | undefined => {
    const v = raw[field];
    if (v === undefined || v === null) return undefined;
    return typeof v === 'string' ? v : fail([...at, field], `expected a string, got ${typeof v}`);
  };
  const strings = (field: string): string[] => {
    const v = raw[field];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) return fail([...at, field], 'expected a list of strings');
    const i = v.findIndex((x) => typeof x !== 'string');
    return i === -1 ? (v as string[]) : fail([...at, field, i], `expected a string, got ${typeof v[i]}`);
  };
  const map = (field: string): Record<string, string> => {
    const v = raw[field];
    if (v === undefined || v === null) return {};
    if (!isObject(v)) return fail([...at, field], 'expected an object of names to values');
    const out: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) {
      // Numbers and booleans are common in env blocks; the process gets their text.
      if (typeof x === 'string') out[k] = x;
      else if (typeof x === 'number' || typeof x === 'boolean') out[k] = String(x);
      else if (x !== null) fail([...at, field, k], `expected a string, got ${Array.isArray(x) ? 'a list' : typeof x}`);
    }
    return out;
  };
  const name = str('name');
  const description = str('description');
  const command = str('command');
  const url = str('url') ?? str('baseUrl');
  const type = str('type');
  const args = strings('args');
  const env = map('env');
  const headers = map('headers');
  const transport = transportOf(type, command, url);
  if (!transport)
    fail([...at, 'type'], `"${type}" is not a transport Plugboard knows (stdio, http, streamableHttp, sse)`);
  if (transport === 'stdio' && !command)
    fail([...at, 'command'], 'missing: a local server needs the command that starts it');
  if ((transport === 'http' || transport === 'sse') && !url)
    fail([...at, 'url'], 'missing: a remote server needs its url');
  const server: ImportedServer = {
    key,
    name: name?.trim() || key,
    transport: transport as ImportedServer['transport'],
    args,
    env,
    headers,
    disabled: raw.isActive === false || raw.disabled === true || raw.enabled === false,
    ignored: ['envFile', 'cwd'].filter((k) => raw[k] !== undefined),
    at: doc.at(at),
  };
  if (description) server.description = description;
  if (command) server.command = command;
  if (url) server.url = url;
  return server;
}

function transportOf(
  type: string | undefined,
  command: string | undefined,
  url: string | undefined,
): ImportedServer['transport'] | null {
  if (type === undefined || type === '')
    return command ? 'stdio' : url ? (/\/sse\/?$/.test(url) ? 'sse' : 'http') : 'stdio';
  const t = type.toLowerCase();
  if (t === 'stdio' || t === 'local' || t === 'process') return 'stdio';
  if (t === 'http' || t === 'streamablehttp' || t === 'streamable-http' || t === 'remote') return 'http';
  if (t === 'sse') return 'sse';
  if (t === 'inmemory') return 'in-memory';
  return null;
}

function readInputs(top: Record<string, unknown>, doc: JsoncDoc): ImportedInput[] | Bad {
  const raw = top.inputs;
  if (raw === undefined) return [];
  if (!Array.isArray(raw))
    return { ok: false, at: doc.at(['inputs']), field: 'inputs', message: 'expected a list of inputs' };
  const out: ImportedInput[] = [];
  for (const [i, x] of raw.entries()) {
    if (!isObject(x) || typeof x.id !== 'string')
      return {
        ok: false,
        at: doc.at(['inputs', i]),
        field: `inputs[${i}].id`,
        message: 'expected an input with a string id',
      };
    out.push({
      id: x.id,
      description: typeof x.description === 'string' ? x.description : x.id,
      password: x.password === true,
    });
  }
  return out;
}

function guessApp(file: string, listKey: Path, entries: unknown[]): SourceApp {
  const base = path.basename(file).toLowerCase();
  const parent = path.basename(path.dirname(file)).toLowerCase();
  if (listKey[0] !== 'mcpServers') return 'vscode';
  if (base === 'claude_desktop_config.json') return 'claude-desktop';
  if (parent === '.cursor') return 'cursor';
  if (base === '.mcp.json') return 'claude-code';
  const objects = entries.filter(isObject);
  if (objects.some((e) => 'baseUrl' in e || e.type === 'streamableHttp' || e.type === 'inMemory'))
    return 'cherry-studio';
  if (objects.some((e) => 'isActive' in e)) return parent.includes('5ire') ? '5ire' : 'cherry-studio';
  return 'mcp-config';
}
