/**
 * A catalog entry as an import: each way its server.json offers to run it (a package on npm, PyPI
 * or OCI, or a remote Streamable HTTP endpoint) becomes one server of an ImportedConfig, written
 * as a person would write it in an MCP config (`npx -y pkg@1.2.3`, `uvx pkg==1.2.3`,
 * `docker run -i --rm -e VAR image:1.2.3`), so the same preview, the same pinned install and the
 * same secret handling apply as to an import. Values the entry leaves to the person (a required
 * or secret variable, an argument with no value) become `${input:…}` questions: required
 * settings of the plugin, the secret ones in the secret store. The package each server runs is
 * handed back too, for the install record (install/pinned.ts).
 */
import { APP_NAMES, previewServers, type ImportedConfig, type ImportedInput, type ImportedServer } from '../import';
import type { CatalogOrigin, PinnedPackage } from '../install/pinned';
import type { RegistryArgument, RegistryInput, RegistryKeyValue, RegistryPackage, ServerResponse } from './server-json';

export interface CatalogImport {
  config: ImportedConfig;
  /** By server key: the catalog entry and the package it runs. */
  origins: Record<string, { catalog: CatalogOrigin; package?: PinnedPackage }>;
}

/** The `${input:…}` id of an argument, variable or header name (`--api-key` → `api_key`). */
function inputId(name: string): string {
  return name.replace(/^-+/, '').replace(/[^A-Za-z0-9_]+/g, '_') || 'value';
}

/** What builds one server's words: `${input:…}` questions collected as it goes. */
class Asker {
  readonly inputs: ImportedInput[] = [];

  ask(id: string, input: RegistryInput): string {
    const key = inputId(id);
    if (!this.inputs.some((i) => i.id === key))
      this.inputs.push({ id: key, description: input.description ?? key, password: input.isSecret === true });
    return `\${input:${key}}`;
  }

  /** A value as given, its `{variables}` filled from their values or defaults, else asked for. */
  fill(value: string, variables: Record<string, RegistryInput> | undefined): string {
    return value.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (all, name: string) => {
      const v = variables?.[name];
      if (!v) return all;
      return v.value ?? v.default ?? this.ask(name, v);
    });
  }

  /** An input's value: its own, else (when required or secret) a question, else its default. */
  valueOf(id: string, input: RegistryInput & { variables?: Record<string, RegistryInput> }): string | null {
    if (input.value !== undefined) return this.fill(input.value, input.variables);
    if (input.isRequired || input.isSecret) return this.ask(id, input);
    return input.default ?? null;
  }

  args(list: RegistryArgument[] | undefined): string[] {
    const out: string[] = [];
    for (const a of list ?? []) {
      if (a.type === 'positional') {
        const v = this.valueOf(a.valueHint ?? 'argument', a);
        if (v !== null) out.push(v);
        continue;
      }
      const v = this.valueOf(a.name, a);
      if (v === null) continue;
      if (a.name.endsWith('=')) out.push(`${a.name}${v}`);
      else out.push(a.name, v);
    }
    return out;
  }

  env(list: RegistryKeyValue[] | undefined): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of list ?? []) {
      const v = this.valueOf(e.name, e);
      if (v !== null) out[e.name] = v;
    }
    return out;
  }
}

/** A catalog entry has no lines: its servers are not at a place in a file (the preview shows none). */
const NOWHERE = { line: 0, column: 0 };

const KIND_NAMES: Record<string, string> = { npm: 'npm', pypi: 'PyPI', oci: 'Docker', remote: 'remote' };

/** Why a package cannot run here, or null when it can. */
export function packageProblem(p: RegistryPackage): string | null {
  if (!['npm', 'pypi', 'oci'].includes(p.registryType))
    return `a ${p.registryType} package, which Plugboard cannot install (it installs npm, PyPI and OCI packages)`;
  if (!p.version) return 'the entry names no version of the package, so it cannot be pinned';
  const t = p.transport?.type ?? 'stdio';
  if (t !== 'stdio')
    return `the package serves MCP over ${t} on this computer; Plugboard runs local servers over stdio`;
  return null;
}

function packageServer(key: string, name: string, p: RegistryPackage, asker: Asker): ImportedServer {
  const env = asker.env(p.environmentVariables);
  const runtime = asker.args(p.runtimeArguments);
  const args = asker.args(p.packageArguments);
  const version = p.version as string;
  let command: string;
  let words: string[];
  if (p.registryType === 'npm') {
    command = 'npx';
    words = [
      ...(runtime.includes('-y') || runtime.includes('--yes') ? [] : ['-y']),
      ...runtime,
      `${p.identifier}@${version}`,
      ...args,
    ];
  } else if (p.registryType === 'pypi') {
    command = 'uvx';
    words = [...runtime, `${p.identifier}==${version}`, ...args];
  } else {
    // A container sees only the variables named with -e; their values come from the plugin's environment.
    const image = /[:@][^/]*$/.test(p.identifier) ? p.identifier : `${p.identifier}:${version}`;
    const passEnv = Object.keys(env).flatMap((n) => ['-e', n]);
    command = 'docker';
    words = ['run', '-i', '--rm', ...runtime.filter((w) => w !== '-i' && w !== '--rm'), ...passEnv, image, ...args];
  }
  return {
    key,
    name,
    transport: 'stdio',
    command,
    args: words,
    env,
    headers: {},
    disabled: false,
    ignored: [],
    at: NOWHERE,
  };
}

export function toImport(url: string, entry: ServerResponse): CatalogImport {
  const s = entry.server;
  const title = s.title?.trim() || s.name.split('/').pop() || s.name;
  const servers: ImportedServer[] = [];
  const inputs: ImportedInput[] = [];
  const origins: CatalogImport['origins'] = {};
  const kinds = new Map<string, number>();
  const keyFor = (kind: string): string => {
    const n = (kinds.get(kind) ?? 0) + 1;
    kinds.set(kind, n);
    return n === 1 ? kind : `${kind}-${n}`;
  };
  const choices = s.packages.length + s.remotes.length;
  const nameFor = (kind: string): string => (choices > 1 ? `${title} (${KIND_NAMES[kind] ?? kind})` : title);
  const unrunnable: Array<{ key: string; problem: string }> = [];
  for (const p of s.packages) {
    const kind = ['npm', 'pypi', 'oci'].includes(p.registryType) ? p.registryType : p.registryType.toLowerCase();
    const key = keyFor(kind);
    const asker = new Asker();
    const problem = packageProblem(p);
    const server: ImportedServer = problem
      ? {
          key,
          name: nameFor(kind),
          transport: 'stdio',
          command: p.identifier,
          args: [],
          env: {},
          headers: {},
          disabled: false,
          ignored: [],
          at: NOWHERE,
        }
      : packageServer(key, nameFor(kind), p, asker);
    if (problem) unrunnable.push({ key, problem });
    else
      origins[key] = {
        catalog: { url, name: s.name, version: s.version, kind: kind as CatalogOrigin['kind'] },
        package: { ecosystem: kind as PinnedPackage['ecosystem'], name: p.identifier, version: p.version as string },
      };
    servers.push({ ...server, version: s.version, ...(s.description ? { description: s.description } : {}) });
    inputs.push(...asker.inputs.filter((i) => !inputs.some((x) => x.id === i.id)));
  }
  for (const r of s.remotes) {
    const key = keyFor('remote');
    const asker = new Asker();
    const urlOf = asker.fill(r.url ?? '', r.variables);
    const headers = asker.env(r.headers);
    const transport = r.type === 'streamable-http' ? 'http' : r.type === 'sse' ? 'sse' : 'in-memory';
    servers.push({
      key,
      name: nameFor('remote'),
      transport,
      url: urlOf,
      args: [],
      env: {},
      headers,
      disabled: false,
      ignored: [],
      at: NOWHERE,
      version: s.version,
      ...(s.description ? { description: s.description } : {}),
    });
    if (transport === 'in-memory')
      unrunnable.push({ key, problem: `a remote of transport "${r.type}", which Plugboard does not speak` });
    else if (transport === 'http')
      origins[key] = { catalog: { url, name: s.name, version: s.version, kind: 'remote' } };
    inputs.push(...asker.inputs.filter((i) => !inputs.some((x) => x.id === i.id)));
  }
  const file = `${s.name}@${s.version}`;
  const secretInputs = new Set(inputs.filter((i) => i.password).map((i) => i.id));
  const previews = previewServers(file, servers, inputs).map((p) => {
    const bad = unrunnable.find((u) => u.key === p.key);
    // The import's words for a password input are VS Code's; here the entry is who says so.
    const env = p.env.map((e) =>
      e.source === 'asked' && secretInputs.has(inputId(e.name))
        ? { ...e, reason: 'the catalog entry marks it secret' }
        : e,
    );
    return bad ? { ...p, env, runnable: false, problem: bad.problem } : { ...p, env };
  });
  return {
    config: { ok: true, file, app: 'mcp-registry', appName: APP_NAMES['mcp-registry'], previews, servers, inputs },
    origins,
  };
}
