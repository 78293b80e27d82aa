/**
 * `plugboard plugins import FILE`: the MCP servers of another app's config (Claude Desktop,
 * Cursor, VS Code, Cherry Studio, 5ire), previewed (command, arguments, environment variable names
 * with the ones that look secret, the values of those that change what runs, flagged; all of it
 * escaped for the terminal by the CLI's output) and installed as plugins. `--preview` stops after
 * the preview; `--only` picks servers; `--secret` says which variables are secrets. The window's
 * commands do it (`import.preview`, then `import.commit` with the preview's token).
 */
import path from 'node:path';
import type { ImportPreviewView, ImportResultView } from '../../../shared/imports';
import type { Backend } from '../../service';
import { EXIT_FAILED, EXIT_OK, jsonLine, UsageError, type Out } from '../io';
import { withProgress } from './plugins-install';

type ServerPreview = ImportPreviewView['servers'][number];

export interface ImportFlags {
  only?: string[];
  secret?: string[];
  /** Servers (by key, id or name) granted the network. */
  net?: string[];
  /** Servers (by key, id or name) installed without the folders their preview offers. */
  noFolders?: string[];
  /** Servers (by key) installed under another id. */
  ids?: Record<string, string>;
  /** Servers (by key, id or name) run from a folder of the person's, copied into Plugboard. */
  copy?: string[];
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

export async function importCommand(backend: Backend, file: string, flags: ImportFlags, out: Out): Promise<number> {
  const where = path.resolve(file);
  const config = await backend.request('import.preview', { source: { kind: 'path', path: where } });
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
  const { preview, token } = config;
  if (flags.json)
    jsonLine(out, { type: 'preview', app: preview.app, appName: preview.appName, servers: preview.servers });
  else printPreview(preview, where, out);
  if (flags.preview) {
    await backend.request('install.cancel', { token });
    return EXIT_OK;
  }

  const keyOf = (name: string, flag: string): string => {
    const p = preview.servers.find((x) => x.key === name || x.id === name || x.name === name);
    if (!p) throw new UsageError(`${flag}: ${where} has no server "${name}"`);
    return p.key;
  };
  const grants: Record<string, { net: boolean; folders: Array<{ path: string; write: boolean }> }> = {};
  const net = new Set((flags.net ?? []).map((n) => keyOf(n, '--net')));
  const bare = new Set((flags.noFolders ?? []).map((n) => keyOf(n, '--no-folders')));
  for (const p of preview.servers) {
    if (!net.has(p.key) && !bare.has(p.key)) continue;
    grants[p.key] = {
      net: net.has(p.key),
      folders: bare.has(p.key) ? [] : p.paths.map((g) => ({ path: g.path, write: g.write })),
    };
  }
  const ids = Object.fromEntries(Object.entries(flags.ids ?? {}).map(([k, v]) => [keyOf(k, '--id'), v]));
  const copy = (flags.copy ?? []).map((n) => keyOf(n, '--copy'));
  return withProgress(backend, out, async (progress) => {
    const r = await backend.request('import.commit', {
      token,
      ...(flags.only ? { only: flags.only } : {}),
      ...(flags.secret ? { secret: flags.secret } : {}),
      ...(Object.keys(grants).length > 0 ? { grants } : {}),
      ...(Object.keys(ids).length > 0 ? { ids } : {}),
      ...(copy.length > 0 ? { copy } : {}),
      progress,
    });
    if (!r.ok) {
      if (flags.json) jsonLine(out, { ok: false, code: r.code, error: r.message });
      else out.stderr(`refused: ${r.message}\n`);
      return EXIT_FAILED;
    }
    return printInstalled(r.results, flags.json, out);
  });
}

/** What became of each server installed from a config or a catalog entry; exit 1 when one was refused. */
export function printInstalled(results: ImportResultView[], json: boolean, out: Out): number {
  let failed = 0;
  for (const one of results) {
    if (!one.ok) failed++;
    if (json) {
      jsonLine(out, {
        type: 'installed',
        key: one.key,
        ...(one.ok ? { ok: true, id: one.id, detail: one.detail } : { ok: false, code: one.code, error: one.message }),
      });
    } else if (one.ok) out.stdout(`${one.detail}\n`);
    else out.stderr(`refused ${one.name}: ${one.message}\n`);
  }
  return failed > 0 ? EXIT_FAILED : EXIT_OK;
}

export function printPreview(preview: ImportPreviewView, file: string, out: Out): void {
  const n = preview.servers.length;
  out.stdout(`${n} MCP server${n === 1 ? '' : 's'} in ${file} (${preview.appName}):\n`);
  for (const p of preview.servers) out.stdout(describe(p));
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
  if (p.copy)
    lines.push(
      p.copy.offered
        ? `    runs from ${p.copy.folder} (shown read-only), or from a copy in Plugboard with --copy ${p.key}`
        : `    runs from ${p.copy.folder} (shown read-only); it cannot be copied into Plugboard: ${p.copy.why}`,
    );
  if (p.disabled) lines.push('    switched off in the other app: not installed unless named with --only');
  if (p.problem) lines.push(`    cannot be installed: ${p.problem}`);
  for (const w of p.warnings) lines.push(`    warning: ${w}`);
  return `${lines.join('\n')}\n`;
}

function quote(word: string): string {
  return /^[\w@%+=:,./${}-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
