/**
 * `plugboard plugins …`: list, install, import (other apps' MCP configs), uninstall, expose/unexpose, enable/disable,
 * grant/revoke and config, over the same registry as the app. Exit 0 done, 1 refused or failed
 * (the reason on stderr, or as JSON with --json), 2 usage.
 */
import { requestedCapabilities } from '../../../shared/capabilities';
import { PluginRegistry, type Done } from '../../plugins';
import { EXIT_OK, jsonLine, parse, UsageError, type Out } from '../io';
import type { CliEnv } from '../session';
import { importCommand, listFlag } from './plugins-import';
import { installCommand, parseFolder, refusal } from './plugins-install';
import { bundledPluginsDir, dataDirOf, nodeModulesDir } from '../target';

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
      net: { type: 'string', multiple: true },
      id: { type: 'string', multiple: true },
    },
    { min: 1, max: 1000, names: 'a command (list, install, …)' },
  );
  const [sub, ...rest] = positionals as [string, ...string[]];
  if (!(SUBCOMMANDS as readonly string[]).includes(sub)) throw new UsageError(`unknown plugins command "${sub}"`);
  const json = values.json === true;
  const registry = await PluginRegistry.open({
    dataDir: dataDirOf(values['data-dir']),
    bundledDir: bundledPluginsDir(),
    nodeModules: nodeModulesDir(),
  });
  try {
    switch (sub) {
      case 'list':
        expectArgs(rest, 0, 0, '');
        return await list(registry, env.out, json);
      case 'install':
        return await installCommand(
          registry,
          expectArgs(rest, 1, 1, '<folder|.zip|.mcpb>')[0] as string,
          values,
          env.out,
        );
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
          registry,
          file as string,
          {
            ...(only ? { only } : {}),
            ...(secret ? { secret } : {}),
            net: listFlag(values.net, '--net') ?? [],
            noFolders: listFlag(values['no-folders'], '--no-folders') ?? [],
            ids: parseIds(values.id ?? []),
            preview: values.preview === true,
            json,
          },
          env.out,
        );
      }
      case 'uninstall':
        return report(env.out, json, await registry.uninstall(expectArgs(rest, 1, 1, '<id>')[0] as string));
      case 'expose':
      case 'unexpose': {
        const [target] = expectArgs(rest, 1, 1, '<id>[:<tool>]');
        const at = (target as string).indexOf(':');
        const id = at === -1 ? (target as string) : (target as string).slice(0, at);
        const tool = at === -1 ? undefined : (target as string).slice(at + 1);
        return report(env.out, json, await registry.setExposed(id, tool, sub === 'expose'));
      }
      case 'enable':
      case 'disable':
        return report(
          env.out,
          json,
          await registry.setEnabled(expectArgs(rest, 1, 1, '<id>')[0] as string, sub === 'enable'),
        );
      case 'grant':
      case 'revoke': {
        const folders = (values.folder ?? []).map(parseFolder);
        const [id, ...caps] = expectArgs(
          rest,
          folders.length > 0 ? 1 : 2,
          100,
          '<id> <capability>... (or --folder PATH)',
        );
        return report(
          env.out,
          json,
          sub === 'grant'
            ? await registry.grant(id as string, caps, folders)
            : await registry.revoke(id as string, caps, folders),
        );
      }
      case 'config': {
        const [id, ...pairs] = expectArgs(rest, 2, 1000, '<id> KEY=VALUE...');
        return report(env.out, json, await registry.configure(id as string, parsePairs(pairs)));
      }
    }
  } finally {
    await registry.shutdown();
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

async function list(registry: PluginRegistry, out: Out, json: boolean): Promise<number> {
  const views = new Map(
    await Promise.all(
      registry
        .list()
        .map(async (r) => [r.id, r.spec ? await registry.settings.view(r.id, r.spec.settings) : []] as const),
    ),
  );
  const rows = registry.list().map((rec) => {
    const state = registry.pluginState(rec.id);
    const tools = registry.tools(rec.id);
    const spec = rec.spec;
    return {
      id: rec.id,
      name: spec?.name ?? rec.id,
      version: spec?.version ?? null,
      description: spec?.description ?? '',
      source: rec.source,
      dir: rec.dir,
      dialect: spec?.dialect ?? null,
      error: rec.error ?? null,
      enabled: state.enabled,
      exposed: state.exposed,
      tools: tools.map((t) => ({ name: t.name, exposed: t.exposed })),
      exposedCount: tools.filter((t) => t.exposed).length,
      toolCount: tools.length,
      requested: spec ? requestedCapabilities(spec) : [],
      granted: state.grants,
      folders: state.folders ?? [],
      settings: (views.get(rec.id) ?? []).map((s) => ({
        key: s.key,
        type: s.type,
        required: s.required,
        sensitive: s.sensitive,
        value: s.value,
        default: s.sensitive ? null : (s.default ?? null),
      })),
    };
  });
  if (json) {
    jsonLine(out, rows);
    return EXIT_OK;
  }
  if (rows.length === 0) {
    out.stdout(`no plugins (data directory ${registry.paths.root})\n`);
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
