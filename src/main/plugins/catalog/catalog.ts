/**
 * The catalog: an MCP registry's servers, searched and shown, and installed the way an import is
 * (to-import.ts), pinned to the version the entry names. The registry's URL is a setting
 * (`<data>/catalog.json`, default the official registry); `PLUGBOARD_CATALOG_URL` overrides it
 * for a run. After an install, the install record names the catalog entry and the package, so
 * "check for updates" asks the same registry (install/updates.ts).
 */
import path from 'node:path';
import {
  DEFAULT_CATALOG_URL,
  type CatalogEntryView,
  type CatalogPackageView,
  type CatalogPageView,
} from '../../../shared/catalog';
import { failure, type Outcome, type Result } from '../../../shared/failures';
import { readJson, withFileLock, writeJsonAtomic } from '../../fs';
import { installImported, type ImportChoice, type ImportedOne } from '../import';
import type { InstallRecord } from '../install/pinned';
import type { PluginRegistry } from '../registry/registry';
import { listServers, registryBase, serverVersion } from './registry-api';
import type { ServerResponse } from './server-json';
import { packageProblem, toImport, type CatalogImport } from './to-import';

interface CatalogSettings {
  url?: string;
}

export class Catalog {
  private readonly file: string;

  constructor(
    private readonly registry: PluginRegistry,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.file = path.join(registry.paths.root, 'catalog.json');
  }

  /** The registry the catalog reads. */
  url(): string {
    const override = this.env.PLUGBOARD_CATALOG_URL;
    if (override) return override.replace(/\/+$/, '');
    const saved = readJson<CatalogSettings>(this.file, {}).url;
    return typeof saved === 'string' && saved ? saved : DEFAULT_CATALOG_URL;
  }

  /** Sets the registry's URL (null: back to the official registry). */
  async setUrl(url: string | null): Promise<Outcome<{ detail: string; url: string }>> {
    let value: string | undefined;
    if (url !== null && url.trim() !== '') {
      const base = registryBase(url);
      if (!base.ok) return base;
      value = base.value;
    }
    try {
      await withFileLock(this.file, () => writeJsonAtomic(this.file, value ? { url: value } : {}));
    } catch (e) {
      return failure('io_error', `could not save the catalog's URL: ${(e as Error).message}`);
    }
    const now = value ?? DEFAULT_CATALOG_URL;
    return { ok: true, url: now, detail: `the catalog reads ${now}` };
  }

  /** A page of servers whose name matches `words`, the newest version of each. */
  async search(words: string, cursor?: string): Promise<Result<CatalogPageView>> {
    const base = registryBase(this.url());
    if (!base.ok) return base;
    const page = await listServers(base.value, { search: words, ...(cursor ? { cursor } : {}) });
    if (!page.ok) return page;
    const installed = this.installedFrom();
    return {
      ok: true,
      value: {
        url: base.value,
        entries: page.value.servers.map((e) => entryView(e, installed.get(e.server.name) ?? null)),
        nextCursor: page.value.nextCursor,
      },
    };
  }

  /** One entry (its newest version, or `version`), as an import preview. */
  async preview(name: string, version = 'latest'): Promise<Result<CatalogImport & { entry: CatalogEntryView }>> {
    const base = registryBase(this.url());
    if (!base.ok) return base;
    const got = await serverVersion(base.value, name, version);
    if (!got.ok) return got;
    const status = got.value._meta?.['io.modelcontextprotocol.registry/official']?.status;
    if (status === 'deleted')
      return failure(
        'install_refused',
        `the registry marks ${name} ${got.value.server.version} deleted: it is not installed`,
      );
    const imp = toImport(base.value, got.value);
    return {
      ok: true,
      value: { ...imp, entry: entryView(got.value, this.installedFrom().get(name) ?? null) },
    };
  }

  /**
   * Installs the chosen servers of an entry as an import does, then writes in each one's install
   * record which catalog entry and which package it is pinned to.
   */
  async install(imp: CatalogImport, choice: ImportChoice): Promise<Outcome<{ results: ImportedOne[] }>> {
    const r = await installImported(this.registry, imp.config, choice);
    if (!r.ok) return r;
    const done = r.results.filter((x) => x.outcome.ok && imp.origins[x.key]);
    if (done.length > 0) {
      await this.registry.state.update((s) => {
        for (const x of done) {
          const p = s.plugins[x.outcome.ok ? x.outcome.id : x.id];
          const origin = imp.origins[x.key];
          if (!p?.installed || !origin) continue;
          p.installed = { ...p.installed, ...origin } as InstallRecord;
        }
      });
    }
    return r;
  }

  /** Installed plugins by the catalog entry they came from. */
  private installedFrom(): Map<string, { id: string; version: string }> {
    const out = new Map<string, { id: string; version: string }>();
    for (const [id, p] of Object.entries(this.registry.state.read().plugins)) {
      const c = p.installed?.catalog;
      if (c && this.registry.record(id)) out.set(c.name, { id, version: c.version });
    }
    return out;
  }
}

function entryView(e: ServerResponse, installed: { id: string; version: string } | null): CatalogEntryView {
  const s = e.server;
  const packages: CatalogPackageView[] = s.packages.map((p) => {
    const problem = packageProblem(p);
    return {
      kind: p.registryType,
      identifier: p.identifier,
      version: p.version ?? null,
      installable: problem === null,
      ...(problem ? { problem } : {}),
    };
  });
  for (const r of s.remotes) {
    const ok = r.type === 'streamable-http';
    packages.push({
      kind: ok ? 'remote' : `remote (${r.type})`,
      identifier: r.url ?? '',
      version: null,
      installable: ok,
      ...(ok ? {} : { problem: `a remote over ${r.type}, which Plugboard does not speak (it speaks Streamable HTTP)` }),
    });
  }
  return {
    name: s.name,
    title: s.title?.trim() || s.name.split('/').pop() || s.name,
    description: s.description,
    version: s.version,
    repository: s.repository?.url ?? null,
    website: s.websiteUrl ?? null,
    status: e._meta?.['io.modelcontextprotocol.registry/official']?.status ?? null,
    packages,
    installed,
  };
}
