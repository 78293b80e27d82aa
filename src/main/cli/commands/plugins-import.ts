/**
 * `plugboard plugins import FILE`: the MCP servers of another app's config (Claude Desktop,
 * Cursor, VS Code, Cherry Studio, 5ire), previewed (command, arguments, environment variable names
 * with the ones that look secret, the values of those that change what runs, flagged; all of it
 * escaped for the terminal by the CLI's output) and installed as plugins. `--preview` stops after
 * the preview; `--only` picks servers; `--secret` says which variables are secrets.
 */
import {
  installImported,
  readMcpConfig,
  type ImportedConfig,
  type ImportedOne,
  type PluginRegistry,
  type ServerPreview,
} from '../../plugins';
import { EXIT_FAILED, EXIT_OK, jsonLine, UsageError, type Out } from '../io';

export interface ImportFlags {
  only?: string[];
  secret?: string[];
  /** Servers (by key, id or name) granted the network. */
  net?: string[];
  /** Servers (by key, id or name) installed without the folders their preview offers. */
  noFolders?: string[];
  /** Servers (by key) installed under another id. */
  ids?: Record<string, string>;
  preview: boolean;
  json: boolean;
}

/** `a,b` and repeated flags alike; an empty `--secret=` means no secrets at all. */
export function listFlag(values: string[] | undefined, flag: string): string[] | undefined {
  if (values === undefined) return undefined;
  const out = values.flatMap((v) => v.split(',')).map((v) => v.trim());
  if (out.some((v) => v === '') && !(out.length === 1 && flag === '--secret'))
    throw new UsageError(`${flag} takes names separated by commas, got an empty one`);
  return out.filter(Boolean);
}

export async function importCommand(
  registry: PluginRegistry,
  file: string,
  flags: ImportFlags,
  out: Out,
): Promise<number> {
  const config = readMcpConfig(file, undefined, (id) => registry.record(id) !== undefined);
  if (!config.ok) {
    if (flags.json)
      jsonLine(out, {
        ok: false,
        code: config.code,
        error: config.message,
        ...(config.details?.data ? { at: config.details.data } : {}),
      });
    else out.stderr(`refused: ${config.message}\n`);
    return EXIT_FAILED;
  }
  if (flags.json)
    jsonLine(out, { type: 'preview', app: config.app, appName: config.appName, servers: config.previews });
  else printPreview(config, out);
  if (flags.preview) return EXIT_OK;

  const keyOf = (name: string, flag: string): string => {
    const p = config.previews.find((x) => x.key === name || x.id === name || x.name === name);
    if (!p) throw new UsageError(`${flag}: ${config.file} has no server "${name}"`);
    return p.key;
  };
  const grants: Record<string, { net: boolean; folders: Array<{ path: string; write: boolean }> }> = {};
  const net = new Set((flags.net ?? []).map((n) => keyOf(n, '--net')));
  const bare = new Set((flags.noFolders ?? []).map((n) => keyOf(n, '--no-folders')));
  for (const p of config.previews) {
    if (!net.has(p.key) && !bare.has(p.key)) continue;
    grants[p.key] = {
      net: net.has(p.key),
      folders: bare.has(p.key) ? [] : p.paths.map((g) => ({ path: g.path, write: g.write })),
    };
  }
  const ids = Object.fromEntries(Object.entries(flags.ids ?? {}).map(([k, v]) => [keyOf(k, '--id'), v]));
  const r = await installImported(registry, config, {
    ...(flags.only ? { only: flags.only } : {}),
    ...(flags.secret ? { secret: flags.secret } : {}),
    ...(Object.keys(grants).length > 0 ? { grants } : {}),
    ...(Object.keys(ids).length > 0 ? { ids } : {}),
    onProgress: (line) => out.stderr(`  ${line}\n`),
  });
  if (!r.ok) {
    if (flags.json) jsonLine(out, { ok: false, code: r.code, error: r.message });
    else out.stderr(`refused: ${r.message}\n`);
    return EXIT_FAILED;
  }
  return printInstalled(r.results, flags.json, out);
}

/** What became of each server installed from a config or a catalog entry; exit 1 when one was refused. */
export function printInstalled(results: ImportedOne[], json: boolean, out: Out): number {
  let failed = 0;
  for (const one of results) {
    if (!one.outcome.ok) failed++;
    if (json) {
      jsonLine(out, {
        type: 'installed',
        key: one.key,
        ...(one.outcome.ok
          ? { ok: true, id: one.outcome.id, detail: one.outcome.detail }
          : { ok: false, code: one.outcome.code, error: one.outcome.message }),
      });
    } else if (one.outcome.ok) out.stdout(`${one.outcome.detail}\n`);
    else out.stderr(`refused ${one.name}: ${one.outcome.message}\n`);
  }
  return failed > 0 ? EXIT_FAILED : EXIT_OK;
}

export function printPreview(config: ImportedConfig, out: Out): void {
  out.stdout(
    `${config.previews.length} MCP server${config.previews.length === 1 ? '' : 's'} in ${config.file} (${config.appName}):\n`,
  );
  for (const p of config.previews) out.stdout(describe(p));
}

function describe(p: ServerPreview): string {
  const lines = [
    `${p.runnable && !p.disabled ? '●' : '○'} ${p.id}${p.name !== p.id ? ` (“${p.name}”)` : ''}  line ${p.line}`,
  ];
  if (p.command) lines.push(`    command: ${[p.command, ...p.args].map(quote).join(' ')}`);
  if (p.url) lines.push(`    url: ${p.url}`);
  if (p.env.length)
    lines.push(
      `    env: ${p.env.map((e) => `${e.name}${e.secret ? ` (secret: ${e.reason ?? 'marked'})` : ''}`).join(', ')}`,
    );
  // A variable that changes what runs decides the command as much as the command line does.
  for (const e of p.env)
    if (e.runs) lines.push(`    ⚠ ${e.name}=${quote(e.runs.value)}  changes what runs: ${e.runs.why}`);
  if (p.headers.length)
    lines.push(
      `    headers: ${p.headers.map((h) => `${h.name}${h.secret ? ` (secret: ${h.reason ?? 'marked'})` : ''}`).join(', ')}`,
    );
  if (p.idTaken)
    lines.push(
      `    "${p.idTaken}" is taken by an installed plugin: this one installs as ${p.id} (or --id ${p.key}=ID)`,
    );
  for (const g of p.paths)
    lines.push(
      `    grant: ${g.path} ${g.write ? 'read-write' : 'read-only'} (${g.from}${g.named ? `: ${g.named}` : ''})${g.note ? `, ${g.note}` : ''}`,
    );
  if (p.disabled) lines.push('    switched off in the other app: not installed unless named with --only');
  if (p.problem) lines.push(`    cannot be installed: ${p.problem}`);
  for (const w of p.warnings) lines.push(`    warning: ${w}`);
  return `${lines.join('\n')}\n`;
}

function quote(word: string): string {
  return /^[\w@%+=:,./${}-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
