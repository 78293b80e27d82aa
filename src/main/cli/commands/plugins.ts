/**
 * `plugboard plugins …`: list, install, import (other apps' MCP configs), uninstall,
 * expose/unexpose, enable/disable, grant/revoke, config, signin/signout (remote servers' OAuth,
 * plugins-signin.ts), and the catalog and updates (plugins-catalog.ts). Each is the contract's
 * command the app's plugin panel sends (plugins.list, plugins.setExposed…), through the same back
 * end with its input checked by the same schema, so the terminal and the window cannot differ;
 * the conversations stay closed, so this works while the app or `plugboard serve` uses the data
 * directory. Exit 0 done, 1 refused or failed (the reason on stderr, or as JSON with --json), 2 usage.
 */
/* eslint-disable max-lines -- one whole concern: the one table of the plugins command's options and subcommands */
import { isFailure, type Done } from '../../../shared/failures';
import type { Backend } from '../../service';
import { EXIT_OK, jsonLine, parse, UsageError, type Out } from '../io';
import type { CliEnv } from '../session';
import { importCommand, listFlag } from './plugins-import';
import { installCommand, parseFolder, refusal } from './plugins-install';
import { CATALOG_SUBCOMMANDS, catalogCommand } from './plugins-catalog';
import { limitsCommand } from './plugins-limits';
import { signInCommand, signOutCommand } from './plugins-signin';

const SUBCOMMANDS = [
  'list',
  'install',
  'import',
  'uninstall',
  'expose',
  'unexpose',
  'enable',
  'disable',
  'grant',
  'revoke',
  'config',
  'limits',
  ...CATALOG_SUBCOMMANDS,
  'signin',
  'signout',
] as const;

export async function pluginsCommand(argv: string[], env: CliEnv): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      'data-dir': { type: 'string' },
      json: { type: 'boolean' },
      replace: { type: 'boolean' },
      grant: { type: 'string', multiple: true },
      'grant-none': { type: 'boolean' },
      only: { type: 'string', multiple: true },
      secret: { type: 'string', multiple: true },
      preview: { type: 'boolean' },
      folder: { type: 'string', multiple: true },
      'no-folders': { type: 'string', multiple: true },
      copy: { type: 'string', multiple: true },
      net: { type: 'string', multiple: true },
      id: { type: 'string', multiple: true },
      version: { type: 'string' },
      from: { type: 'string' },
      default: { type: 'boolean' },
      'no-browser': { type: 'boolean' },
    },
    { min: 1, max: 1000, names: 'a command (list, install, …)' },
  );
  const [sub, ...rest] = positionals as [string, ...string[]];
  if (!(SUBCOMMANDS as readonly string[]).includes(sub)) throw new UsageError(`unknown plugins command "${sub}"`);
  const json = values.json === true;
  // The back end loads once the arguments are known good.
  const { openForCommand } = await import('../backend');
  const app = await openForCommand(values['data-dir']);
  const { backend } = app;
  try {
    switch (sub) {
      case 'list':
        expectArgs(rest, 0, 0, '');
        return await list(backend, env.out, json);
      case 'install': {
        // One --id: the id to install it under, beside a plugin that has its manifest's.
        if ((values.id?.length ?? 0) > 1) throw new UsageError('install takes one --id');
        const asId = values.id?.[0];
        if (asId !== undefined && asId.includes('='))
          throw new UsageError('install --id takes an id (--id NAME=ID is import’s)');
        return await installCommand(
          backend,
          expectArgs(rest, 1, 1, '<folder|.zip|.mcpb>')[0] as string,
          { ...values, id: asId },
          env.out,
        );
      }
      case 'import': {
        const [file] = expectArgs(
          rest,
          1,
          1,
          '<config file> (claude_desktop_config.json, .cursor/mcp.json, .vscode/mcp.json, …)',
        );
        const only = listFlag(values.only, '--only');
        const secret = listFlag(values.secret, '--secret');
        return await importCommand(
          backend,
          file as string,
          {
            ...(only ? { only } : {}),
            ...(secret ? { secret } : {}),
            net: listFlag(values.net, '--net') ?? [],
            noFolders: listFlag(values['no-folders'], '--no-folders') ?? [],
            copy: listFlag(values.copy, '--copy') ?? [],
            ids: parseIds(values.id ?? []),
            preview: values.preview === true,
            json,
          },
          env.out,
        );
      }
      case 'uninstall': {
        const [id] = expectArgs(rest, 1, 1, '<id>');
        return report(env.out, json, await backend.request('plugins.uninstall', { id: id as string }));
      }
      case 'expose':
      case 'unexpose': {
        const [target] = expectArgs(rest, 1, 1, '<id>[:<tool>]');
        const at = (target as string).indexOf(':');
        const id = at === -1 ? (target as string) : (target as string).slice(0, at);
        const tool = at === -1 ? undefined : (target as string).slice(at + 1);
        const exposed = sub === 'expose';
        return report(
          env.out,
          json,
          await backend.request('plugins.setExposed', { id, exposed, ...(tool !== undefined ? { tool } : {}) }),
        );
      }
      case 'enable':
      case 'disable': {
        const [id] = expectArgs(rest, 1, 1, '<id>');
        return report(
          env.out,
          json,
          await backend.request('plugins.setEnabled', { id: id as string, enabled: sub === 'enable' }),
        );
      }
      case 'grant':
      case 'revoke': {
        const folders = (values.folder ?? []).map(parseFolder);
        const [id, ...capabilities] = expectArgs(
          rest,
          folders.length > 0 ? 1 : 2,
          100,
          '<id> <capability>... (or --folder PATH)',
        );
        const command = sub === 'grant' ? 'plugins.grant' : 'plugins.revoke';
        return report(
          env.out,
          json,
          await backend.request(command, { id: id as string, capabilities, ...(folders.length ? { folders } : {}) }),
        );
      }
      case 'signin':
        return await signInCommand(
          backend,
          expectArgs(rest, 1, 1, '<id>')[0] as string,
          { browser: values['no-browser'] !== true, json },
          env.out,
        );
      case 'signout':
        return await signOutCommand(backend, expectArgs(rest, 1, 1, '<id>')[0] as string, json, env.out);
      case 'config': {
        const [id, ...pairs] = expectArgs(rest, 2, 1000, '<id> KEY=VALUE...');
        return report(
          env.out,
          json,
          await backend.request('plugins.configure', { id: id as string, values: parsePairs(pairs) }),
        );
      }
      case 'limits': {
        const [id, ...pairs] = expectArgs(rest, 1, 100, '<id> [KEY=VALUE...]');
        return await limitsCommand(backend, id as string, pairs, values.default === true, json, env.out);
      }
      default: {
        const only = listFlag(values.only, '--only');
        const secret = listFlag(values.secret, '--secret');
        return await catalogCommand(
          backend,
          sub as (typeof CATALOG_SUBCOMMANDS)[number],
          rest,
          {
            json,
            preview: values.preview === true,
            reset: values.default === true,
            ...(only ? { only } : {}),
            ...(secret ? { secret } : {}),
            ...(values.version ? { version: values.version } : {}),
            ...(values.from ? { from: values.from } : {}),
          },
          env.out,
        );
      }
    }
  } finally {
    await app.close();
  }
  return EXIT_OK;
}

/** `--id KEY=ID`: an imported server installed under another id. */
function parseIds(values: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new UsageError(`--id takes SERVER=ID, got "${v}"`);
    out[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return out;
}

function expectArgs(rest: string[], min: number, max: number, names: string): string[] {
  if (rest.length < min) throw new UsageError(`missing ${names}`);
  if (rest.length > max) throw new UsageError(`unexpected argument "${rest[max]}"`);
  return rest;
}

/** `KEY=VALUE` pairs; `KEY=` unsets; a repeated KEY (or a JSON array value) makes a list. */
export function parsePairs(pairs: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of pairs) {
    const eq = p.indexOf('=');
    if (eq <= 0) throw new UsageError(`"${p}" is not KEY=VALUE`);
    const key = p.slice(0, eq);
    const raw = p.slice(eq + 1);
    let value: unknown = raw === '' ? null : raw;
    if (raw.startsWith('[')) {
      try {
        value = JSON.parse(raw);
      } catch {
        throw new UsageError(`${key}: "${raw}" is not a JSON list`);
      }
    }
    if (key in out && value !== null) {
      const prev = out[key];
      out[key] = [...(Array.isArray(prev) ? prev : [prev]), value];
    } else out[key] = value;
  }
  return out;
}

function report(out: Out, json: boolean, r: Done): number {
  if (!r.ok) return refusal(out, json, r);
  if (json) jsonLine(out, r);
  else out.stdout(`${r.detail}\n`);
  return EXIT_OK;
}

async function list(backend: Backend, out: Out, json: boolean): Promise<number> {
  const views = await backend.request('plugins.list', {});
  if (isFailure(views)) return refusal(out, json, views);
  const details = await Promise.all(views.map((v) => backend.request('plugins.detail', { id: v.id })));
  const rows = [];
  for (const [i, v] of views.entries()) {
    const d = details[i];
    if (isFailure(d)) return refusal(out, json, d);
    const tools = d?.tools ?? [];
    rows.push({
      id: v.id,
      name: v.name,
      version: v.version,
      description: v.description,
      source: v.source,
      dir: d?.dir ?? null,
      dialect: v.dialect,
      error: v.error,
      enabled: v.enabled,
      exposed: v.exposed,
      tools: tools.map((t) => ({ name: t.name, exposed: t.exposed })),
      exposedCount: v.exposedCount,
      toolCount: v.toolCount,
      requested: v.requested,
      granted: v.granted,
      folders: d?.folders ?? [],
      settings: (d?.settings ?? []).map((s) => ({
        key: s.key,
        type: s.type,
        required: s.required,
        sensitive: s.sensitive,
        value: s.value,
        default: s.sensitive ? null : (s.default ?? null),
      })),
    });
  }
  if (json) {
    jsonLine(out, rows);
    return EXIT_OK;
  }
  if (rows.length === 0) {
    const info = await backend.request('app.info', {});
    out.stdout(`no plugins (data directory ${isFailure(info) ? '?' : info.dataDir})\n`);
    return EXIT_OK;
  }
  for (const r of rows) {
    if (r.error) {
      out.stdout(`✗ ${r.id}  (${r.source})  ${r.error.split('\n').join(' ')}\n`);
      continue;
    }
    const state = !r.enabled ? 'disabled' : !r.exposed ? 'unexposed' : 'enabled';
    out.stdout(
      `${r.enabled ? '●' : '○'} ${r.id} ${r.version}  ${r.dialect}  ${r.source}  ${state}  tools ${r.exposedCount}/${r.toolCount} exposed\n`,
    );
    const off = r.tools.filter((t) => !t.exposed).map((t) => t.name);
    if (off.length) out.stdout(`    off: ${off.join(', ')}\n`);
    if (r.requested.length) {
      out.stdout(
        `    capabilities: ${r.requested.map((c) => `${c}${r.granted.includes(c) ? '' : ' (not granted)'}`).join(', ')}\n`,
      );
    }
    const unrequested = r.granted.filter((c) => !r.requested.includes(c));
    if (unrequested.length) out.stdout(`    granted, not requested: ${unrequested.join(', ')}\n`);
    for (const f of r.folders) out.stdout(`    folder: ${f.path} (${f.write ? 'read-write' : 'read-only'})\n`);
    const missing = r.settings.filter((s) => s.required && s.value === null && s.default === null).map((s) => s.key);
    if (missing.length)
      out.stdout(`    needs settings: ${missing.join(', ')} (plugboard plugins config ${r.id} KEY=VALUE)\n`);
  }
  return EXIT_OK;
}
