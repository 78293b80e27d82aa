/**
 * The catalog and updates behind the contract: `catalog.*` (search an MCP registry, preview an
 * entry as an import, the registry's URL) and `updates.*` with `plugins.rollback` (check, preview,
 * commit, cancel, roll back). The plugin service does the work (plugins/catalog, install/updates);
 * this turns its answers into the contract's shapes.
 */
import { DEFAULT_CATALOG_URL } from '../../shared/catalog';
import type { CommandInput, CommandOutput } from '../../shared/contract';
import { Catalog, Updates, type PluginRegistry } from '../plugins';
import type { Installs } from './installs';

export class CatalogUpdates {
  readonly catalog: Catalog;
  readonly updates: Updates;

  constructor(private readonly registry: PluginRegistry) {
    this.catalog = new Catalog(registry);
    this.updates = new Updates(registry);
  }

  async search({ query, cursor }: CommandInput<'catalog.search'>): Promise<CommandOutput<'catalog.search'>> {
    const r = await this.catalog.search(query, cursor);
    return r.ok ? { ok: true, page: r.value } : r;
  }

  async preview(
    { name, version }: CommandInput<'catalog.preview'>,
    installs: Installs,
  ): Promise<CommandOutput<'catalog.preview'>> {
    const r = await this.catalog.preview(name, version);
    if (!r.ok) return r;
    const token = installs.catalogPreview(r.value);
    const { config, entry } = r.value;
    return {
      ok: true,
      token,
      entry,
      preview: { file: config.file, appName: config.appName, app: config.app, servers: config.previews },
    };
  }

  settings(): CommandOutput<'catalog.settings'> {
    return { url: this.catalog.url(), defaultUrl: DEFAULT_CATALOG_URL };
  }

  async setUrl({ url }: CommandInput<'catalog.setUrl'>): Promise<CommandOutput<'catalog.setUrl'>> {
    const r = await this.catalog.setUrl(url);
    return r.ok ? { ok: true, detail: r.detail } : r;
  }

  async check({ id }: CommandInput<'updates.check'>): Promise<CommandOutput<'updates.check'>> {
    const r = await this.updates.check(id);
    return r.ok ? { ok: true, updates: r.value } : r;
  }

  updatePreview({ id, version, from }: CommandInput<'updates.preview'>): Promise<CommandOutput<'updates.preview'>> {
    return this.updates.preview(id, { ...(version ? { version } : {}), ...(from ? { source: from } : {}) });
  }

  commit({ token }: CommandInput<'updates.commit'>): Promise<CommandOutput<'updates.commit'>> {
    return this.updates.commit(token);
  }

  cancel({ token }: CommandInput<'updates.cancel'>): CommandOutput<'updates.cancel'> {
    this.updates.cancel(token);
    return { ok: true, detail: 'cancelled' };
  }

  rollback({ id }: CommandInput<'plugins.rollback'>): Promise<CommandOutput<'plugins.rollback'>> {
    return this.registry.installer.rollback(id);
  }

  dispose(): void {
    this.updates.dispose();
  }
}
