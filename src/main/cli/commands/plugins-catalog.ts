/**
 * `plugboard plugins search|add|registry|outdated|update|rollback`: the catalog (an MCP registry)
 * searched and installed from, pinned, and updates that never surprise: checked when asked,
 * previewed with what changes in the tools, installed staged, the previous version kept for
 * `rollback`. The same contract commands as the app's catalog view and its "Check for updates"
 * (`catalog.*`, `updates.*`, `import.commit`, `plugins.rollback`).
 */
import type { CatalogEntryView } from '../../../shared/catalog';
import type { Failure } from '../../../shared/failures';
import type { ToolChangesView, UpdatePreviewView } from '../../../shared/updates';
import { diffText } from '../../plugins';
import type { Backend } from '../../service';
import { EXIT_FAILED, EXIT_OK, jsonLine, UsageError, type Out } from '../io';
import { printInstalled, printPreview } from './plugins-import';
import { withProgress } from './plugins-install';

export interface CatalogFlags {
  json: boolean;
  preview: boolean;
  only?: string[];
  secret?: string[];
  version?: string;
  from?: string;
  reset: boolean;
}

export const CATALOG_SUBCOMMANDS = ['search', 'add', 'registry', 'outdated', 'update', 'rollback'] as const;

export async function catalogCommand(
  backend: Backend,
  sub: (typeof CATALOG_SUBCOMMANDS)[number],
  rest: string[],
  flags: CatalogFlags,
  out: Out,
): Promise<number> {
  switch (sub) {
    case 'search':
      return search(backend, rest.join(' '), flags, out);
    case 'add':
      return add(backend, one(rest, '<registry name>[@version]'), flags, out);
    case 'registry':
      return setRegistry(backend, rest, flags, out);
    case 'outdated':
      return outdated(backend, rest.length ? one(rest, '[id]') : undefined, flags, out);
    case 'update':
      return update(backend, one(rest, '<id>'), flags, out);
    case 'rollback': {
      const r = await backend.request('plugins.rollback', { id: one(rest, '<id>') });
      if (!r.ok) return refusal(out, flags.json, r);
      if (flags.json) jsonLine(out, r);
      else out.stdout(`${r.detail}\n`);
      return EXIT_OK;
    }
  }
}

function one(rest: string[], names: string): string {
  if (rest.length === 0) throw new UsageError(`missing ${names}`);
  if (rest.length > 1) throw new UsageError(`unexpected argument "${rest[1]}"`);
  return rest[0] as string;
}

function refusal(out: Out, json: boolean, r: Failure): number {
  if (json) jsonLine(out, { ok: false, code: r.code, error: r.message });
  else out.stderr(`refused: ${r.message}\n`);
  return EXIT_FAILED;
}

async function search(backend: Backend, words: string, flags: CatalogFlags, out: Out): Promise<number> {
  const r = await backend.request('catalog.search', { query: words });
  if (!r.ok) return refusal(out, flags.json, r);
  const { page } = r;
  if (flags.json) {
    jsonLine(out, page);
    return EXIT_OK;
  }
  if (page.entries.length === 0) {
    out.stdout(`nothing in ${page.url} matches “${words}”\n`);
    return EXIT_OK;
  }
  for (const e of page.entries) out.stdout(describeEntry(e));
  out.stdout(`\n${page.entries.length} from ${page.url}${page.nextCursor ? ' (more: narrow the search)' : ''}\n`);
  return EXIT_OK;
}

function describeEntry(e: CatalogEntryView): string {
  const kinds = e.packages.map((p) => (p.installable ? p.kind : `${p.kind} (cannot install)`)).join(', ');
  const lines = [
    `${e.installed ? '●' : '○'} ${e.title}  ${e.name} ${e.version}${e.status && e.status !== 'active' ? `  [${e.status}]` : ''}`,
  ];
  if (e.description) lines.push(`    ${e.description}`);
  lines.push(`    ${kinds || 'nothing to install'}`);
  lines.push(
    e.installed
      ? `    installed as ${e.installed.id} ${e.installed.version}`
      : `    install: plugboard plugins add ${e.name}`,
  );
  return `${lines.join('\n')}\n`;
}

async function add(backend: Backend, target: string, flags: CatalogFlags, out: Out): Promise<number> {
  // `name@version`: a registry name has one slash and no @, so the last @ starts the version.
  const at = target.lastIndexOf('@');
  const name = at > 0 ? target.slice(0, at) : target;
  const version = flags.version ?? (at > 0 ? target.slice(at + 1) : undefined);
  const r = await backend.request('catalog.preview', { name, ...(version ? { version } : {}) });
  if (!r.ok) return refusal(out, flags.json, r);
  const { preview, token } = r;
  if (flags.json) jsonLine(out, { type: 'preview', entry: r.entry, servers: preview.servers });
  else printPreview(preview, preview.file, out);
  const cancel = async (): Promise<void> => void (await backend.request('install.cancel', { token }));
  if (flags.preview) {
    await cancel();
    return EXIT_OK;
  }
  // One way to run the server is enough: the first that can run here, unless --only names others.
  const first = preview.servers.find((p) => p.runnable);
  const only = flags.only ?? (first ? [first.key] : []);
  if (only.length === 0) {
    await cancel();
    return refusal(out, flags.json, {
      ok: false,
      code: 'install_refused',
      message: `${name} offers nothing Plugboard can install here`,
    });
  }
  return withProgress(backend, out, async (progress) => {
    const done = await backend.request('import.commit', {
      token,
      only,
      ...(flags.secret ? { secret: flags.secret } : {}),
      progress,
    });
    if (!done.ok) return refusal(out, flags.json, done);
    return printInstalled(done.results, flags.json, out);
  });
}

async function setRegistry(backend: Backend, rest: string[], flags: CatalogFlags, out: Out): Promise<number> {
  if (rest.length === 0 && !flags.reset) {
    const r = await backend.request('catalog.settings', {});
    if ('ok' in r) return refusal(out, flags.json, r);
    const { url } = r;
    if (flags.json) jsonLine(out, { url });
    else out.stdout(`${url}\n`);
    return EXIT_OK;
  }
  const r = await backend.request('catalog.setUrl', { url: flags.reset ? null : one(rest, '<url>') });
  if (!r.ok) return refusal(out, flags.json, r);
  if (flags.json) jsonLine(out, r);
  else out.stdout(`${r.detail}\n`);
  return EXIT_OK;
}

async function outdated(backend: Backend, id: string | undefined, flags: CatalogFlags, out: Out): Promise<number> {
  const r = await backend.request('updates.check', id ? { id } : {});
  if (!r.ok) return refusal(out, flags.json, r);
  if (flags.json) {
    jsonLine(out, r.updates);
    return EXIT_OK;
  }
  if (r.updates.length === 0) out.stdout('no installed plugins\n');
  for (const u of r.updates) {
    const mark = u.status === 'available' ? '↑' : u.status === 'current' ? '✓' : '?';
    const what =
      u.status === 'available'
        ? `${u.current} → ${u.latest}`
        : u.status === 'current'
          ? `${u.current} (current)`
          : `${u.current}: ${u.message ?? 'unknown'}`;
    out.stdout(`${mark} ${u.id}  ${what}${u.from ? `  from ${u.from}` : ''}\n`);
  }
  const n = r.updates.filter((u) => u.status === 'available').length;
  if (n > 0)
    out.stdout(`\n${n} update${n === 1 ? '' : 's'}: plugboard plugins update <id> (nothing changes until you do)\n`);
  return EXIT_OK;
}

async function update(backend: Backend, id: string, flags: CatalogFlags, out: Out): Promise<number> {
  const p = await backend.request('updates.preview', {
    id,
    ...(flags.version ? { version: flags.version } : {}),
    ...(flags.from ? { from: flags.from } : {}),
  });
  if (!p.ok) return refusal(out, flags.json, p);
  if (flags.json) jsonLine(out, { type: 'preview', ...p.preview });
  else out.stdout(describeUpdate(p.preview));
  if (flags.preview) {
    await backend.request('updates.cancel', { token: p.token });
    return EXIT_OK;
  }
  const r = await backend.request('updates.commit', { token: p.token });
  if (!r.ok) return refusal(out, flags.json, r);
  if (flags.json) jsonLine(out, { type: 'updated', ...r });
  else out.stdout(`${r.detail}\nplugboard plugins rollback ${id} puts ${p.preview.from} back\n`);
  return EXIT_OK;
}

export function describeUpdate(p: UpdatePreviewView): string {
  const lines = [`${p.name} (${p.id}): ${p.from} → ${p.to}`, `  command: ${p.command.join(' ')}`];
  const pkg = p.package;
  if (pkg?.status === 'installed' && pkg.version)
    lines.push(
      `  package: ${pkg.spec || 'its dependencies'} pinned at ${pkg.version}${pkg.integrity ? ` (${pkg.integrity})` : ''}`,
    );
  const t = p.trial;
  lines.push(
    t.status === 'ok'
      ? `  trial: started and shook hands in ${t.handshakeMs} ms, ${t.tools} tools`
      : t.status === 'failed'
        ? `  trial: ${t.code}: ${t.message}`
        : `  trial: ${t.message}`,
  );
  lines.push(...describeChanges(p.changes));
  if (p.newlyRequested.length)
    lines.push(`  requests, not granted: ${p.newlyRequested.join(', ')} (plugboard plugins grant ${p.id} …)`);
  for (const w of p.warnings) lines.push(`  warning: ${w}`);
  return `${lines.join('\n')}\n`;
}

function describeChanges(c: ToolChangesView): string[] {
  if (!c.known) return [`  tools: ${c.note ?? 'not known'}`];
  if (!c.added.length && !c.removed.length && !c.changed.length) return [`  tools: no change (${c.unchanged})`];
  const lines = [
    `  tools: ${c.added.length} added, ${c.removed.length} removed, ${c.changed.length} changed, ${c.unchanged} the same`,
  ];
  for (const t of c.added) lines.push(`  + ${t.name}: ${t.description}`);
  for (const t of c.removed) lines.push(`  - ${t.name}: ${t.description}`);
  for (const t of c.changed) {
    lines.push(`  ~ ${t.name}`);
    const indent = (s: string): string => s.replace(/^/gm, '      ');
    if (t.description) lines.push('    description:', indent(diffText(t.description)));
    if (t.schema) lines.push('    input schema:', indent(diffText(t.schema)));
  }
  return lines;
}
