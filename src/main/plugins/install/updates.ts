/**
 * Updates that never surprise. Nothing here runs by itself: a pinned plugin changes only when a
 * person asks. `check` asks each installed plugin's origin for its current version: the catalog
 * entry it came from, the npm or PyPI package it is pinned to (pinned.ts), or the folder or
 * package it was installed from, read again. `preview` stages the other version (a plugin folder
 * that runs it), tries it in the sandbox as an install preview does, and says what changes in its
 * tools (tool-changes.ts); `commit` installs it staged, over the installed one, which is kept for
 * a one-step rollback (previous.ts); the install record then names the new pin.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { failure, type Outcome, type Result } from '../../../shared/failures';
import type { ToolSpec } from '../../../shared/plugin';
import type { ToolChangesView, UpdateCheckView, UpdateOrigin, UpdatePreviewView } from '../../../shared/updates';
import { serverVersion, toImport } from '../catalog';
import { writeImportedPlugin } from '../import';
import { loadManifest } from '../manifests';
import type { PluginRecord } from '../registry/discovery';
import type { PluginRegistry } from '../registry/registry';
import type { InstallPreview } from './installer';
import { defaultRegistries, latestVersion, stageVersion, type PackageRegistries } from './package-versions';
import { pinnedPackage, type InstallRecord } from './pinned';
import { stage } from './stage';
import { toolChanges } from './tool-changes';

/** Where a plugin's other version comes from, and how to stage it. */
interface Origin {
  origin: UpdateOrigin;
  from: string;
  latest(): Promise<Result<string>>;
  /** A folder to install over the plugin that runs `version`, and the install record's new pin. */
  stage(version: string): Promise<Result<{ dir: string; discard(): void; record: Partial<InstallRecord> }>>;
}

interface Pending {
  id: string;
  dir: string;
  discard(): void;
  record: Partial<InstallRecord>;
  version: string;
}

export class Updates {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly registry: PluginRegistry,
    private readonly registries: PackageRegistries = defaultRegistries(),
  ) {}

  /** Each installed plugin (or the one named) with the version its origin offers. Changes nothing. */
  async check(id?: string): Promise<Result<UpdateCheckView[]>> {
    const recs = this.registry.list().filter((r) => r.source === 'installed' && (id === undefined || r.id === id));
    if (id !== undefined && recs.length === 0) return failure('not_found', `no plugin "${id}" is installed`);
    return { ok: true, value: await Promise.all(recs.map((r) => this.checkOne(r))) };
  }

  private async checkOne(rec: PluginRecord): Promise<UpdateCheckView> {
    const current = rec.spec?.version ?? this.record(rec.id)?.version ?? '?';
    const base = { id: rec.id, name: rec.spec?.name ?? rec.id, current };
    const o = this.originOf(rec);
    if (!o.ok) return { ...base, latest: null, status: 'unknown', origin: null, from: '', message: o.message };
    const latest = await o.value.latest();
    const { origin, from } = o.value;
    if (!latest.ok) return { ...base, latest: null, status: 'unknown', origin, from, message: latest.message };
    const pinned = this.pinnedVersion(rec) ?? current;
    return {
      ...base,
      current: pinned,
      latest: latest.value,
      status: latest.value === pinned ? 'current' : 'available',
      origin,
      from,
    };
  }

  /**
   * Stages the other version of `id` (the origin's latest, or `version`; or the package at
   * `source`, a newer folder, zip or bundle of the same id), tries it, and says what it changes.
   */
  async preview(
    id: string,
    opts: { version?: string; source?: string } = {},
  ): Promise<Outcome<{ token: string; preview: UpdatePreviewView }>> {
    const rec = this.registry.record(id);
    if (rec?.source !== 'installed' || !rec.spec) return failure('not_found', `no plugin "${id}" is installed`);
    const o = opts.source ? { ok: true as const, value: this.sourceOrigin(opts.source) } : this.originOf(rec);
    if (!o.ok) return o;
    let to = opts.version;
    if (!to) {
      const latest = await o.value.latest();
      if (!latest.ok) return latest;
      to = latest.value;
    }
    const from = this.pinnedVersion(rec) ?? rec.spec.version;
    if (to === from && !opts.source)
      return failure('invalid_state', `${id} is at ${from} already, the version ${o.value.from} offers`);
    const staged = await o.value.stage(to);
    if (!staged.ok) return staged;
    const p = await this.registry.preview(staged.value.dir);
    if (!p.ok) {
      staged.value.discard();
      return p;
    }
    if (p.preview.id !== id) {
      staged.value.discard();
      return failure(
        'install_refused',
        `the new version's id is "${p.preview.id}", not "${id}": it would install beside it, not over it`,
      );
    }
    const token = randomUUID();
    this.pending.set(token, { id, ...staged.value, version: to });
    return { ok: true, token, preview: this.describe(id, from, p.preview.version, o.value.origin, p.preview) };
  }

  /** What installing `preview` over the installed plugin of its id changes in its tools (null: nothing installed). */
  changesFor(preview: InstallPreview): ToolChangesView | null {
    if (!preview.replaces) return null;
    return toolChanges(this.currentTools(preview.id), newTools(preview));
  }

  /** Installs a previewed update over the plugin, keeping the version it replaces for a rollback. */
  async commit(token: string): Promise<Outcome<{ detail: string; id: string; version: string }>> {
    const p = this.pending.get(token);
    if (!p) return failure('invalid_state', 'this update preview has expired; check for updates again');
    this.pending.delete(token);
    try {
      const r = await this.registry.install(p.dir, { replace: true, grant: 'requested' });
      if (!r.ok) return r;
      await this.registry.state.update((s) => {
        const st = s.plugins[p.id];
        if (st?.installed) st.installed = { ...st.installed, ...p.record } as InstallRecord;
      });
      return { ok: true, id: p.id, version: r.version, detail: r.detail };
    } finally {
      p.discard();
    }
  }

  cancel(token: string): void {
    this.pending.get(token)?.discard();
    this.pending.delete(token);
  }

  dispose(): void {
    for (const token of [...this.pending.keys()]) this.cancel(token);
  }

  private record(id: string): InstallRecord | undefined {
    return this.registry.state.plugin(id)?.installed;
  }

  private pinnedVersion(rec: PluginRecord): string | null {
    const r = this.record(rec.id);
    if (r?.catalog) return r.catalog.version;
    const pkg = rec.spec ? pinnedPackage(rec.spec, r) : null;
    return pkg?.version ?? null;
  }

  /** The installed tools: what the plugin announced when it ran, else what its manifest declares. */
  private currentTools(id: string): ToolSpec[] | null {
    const announced = this.registry.announcedTools(id);
    if (announced) return announced;
    const declared = this.registry.record(id)?.spec?.tools ?? [];
    return declared.length > 0 ? declared : null;
  }

  private describe(id: string, from: string, to: string, origin: UpdateOrigin, p: InstallPreview): UpdatePreviewView {
    const grants = this.registry.pluginState(id).grants;
    return {
      id,
      name: p.name,
      from,
      to,
      origin,
      command: p.command,
      trial: p.trial,
      changes: toolChanges(this.currentTools(id), newTools(p)),
      newlyRequested: p.requested.filter((c) => !grants.includes(c)),
      warnings: p.warnings,
    };
  }

  private originOf(rec: PluginRecord): Result<Origin> {
    const spec = rec.spec;
    if (!spec) return failure('invalid_state', `${rec.id} could not be loaded: ${rec.error ?? 'unknown error'}`);
    const record = this.record(rec.id);
    const catalog = record?.catalog;
    if (catalog) {
      return {
        ok: true,
        value: {
          origin: 'catalog',
          from: `the catalog entry ${catalog.name} (${catalog.url})`,
          latest: async () => {
            const got = await serverVersion(catalog.url, catalog.name);
            return got.ok ? { ok: true, value: got.value.server.version } : got;
          },
          stage: (version) => this.stageFromCatalog(rec.id, catalog, version),
        },
      };
    }
    const pkg = pinnedPackage(spec, record);
    if (pkg) {
      const label = `${pkg.ecosystem === 'oci' ? 'the image' : pkg.ecosystem} ${pkg.name}`;
      if (!pkg.version)
        return failure(
          'invalid_state',
          `${rec.id} runs ${label} without a version: it is not pinned, so it is not updated (reinstall it pinned)`,
        );
      const pinned = { ecosystem: pkg.ecosystem, name: pkg.name, version: pkg.version };
      return {
        ok: true,
        value: {
          origin: pkg.ecosystem,
          from: label,
          latest: () => latestVersion(pkg, this.registries),
          stage: async (version) => {
            const s = stageVersion(spec, pinned, version);
            return s.ok
              ? {
                  ok: true,
                  value: { ...s.value, record: { source: `${label}@${version}`, package: { ...pinned, version } } },
                }
              : s;
          },
        },
      };
    }
    const source = record?.source;
    if (!source || !existsSync(source))
      return failure(
        'invalid_state',
        `${rec.id} was installed from ${source ?? 'a package'}, which is not there any more: install a newer package of it over it to update`,
      );
    return { ok: true, value: this.sourceOrigin(source) };
  }

  /** A folder, zip or bundle on disk: its version read from its manifest, installed as it is. */
  private sourceOrigin(source: string): Origin {
    return {
      origin: 'source',
      from: source,
      latest: () => this.versionAt(source),
      stage: async () => ({ ok: true, value: { dir: source, discard: () => {}, record: {} } }),
    };
  }

  /** The version of the package at `source` (a folder, zip or bundle), read without running it. */
  private async versionAt(source: string): Promise<Result<string>> {
    const m = loadManifest(source);
    if (m.ok) return { ok: true, value: m.spec.version };
    const staged = await stage(source, this.registry.paths);
    if (!staged.ok) return failure('install_refused', staged.message);
    staged.discard();
    return { ok: true, value: staged.spec.version };
  }

  private async stageFromCatalog(
    id: string,
    catalog: NonNullable<InstallRecord['catalog']>,
    version: string,
  ): Promise<Result<{ dir: string; discard(): void; record: Partial<InstallRecord> }>> {
    const got = await serverVersion(catalog.url, catalog.name, version);
    if (!got.ok) return got;
    const imp = toImport(catalog.url, got.value);
    const server = imp.config.previews.find((p) => p.key === catalog.kind || p.key.startsWith(`${catalog.kind}-`));
    if (!server?.runnable)
      return failure(
        'install_refused',
        `${catalog.name} ${version} offers no ${catalog.kind} package Plugboard can install${server?.problem ? ` (${server.problem})` : ''}`,
      );
    const scratch = mkdtempSync(path.join(os.tmpdir(), `plugboard-update-${id}-`));
    const discard = (): void => rmSync(scratch, { recursive: true, force: true });
    const written = writeImportedPlugin(imp.config, server.key, path.join(scratch, id), { id });
    if (!written.ok) {
      discard();
      return written;
    }
    const origin = imp.origins[server.key];
    return {
      ok: true,
      value: {
        dir: written.dir,
        discard,
        record: { source: `catalog:${catalog.name}@${version}`, ...(origin ?? {}) },
      },
    };
  }
}

/** The new version's tools: announced by its trial, else declared; null when neither is known. */
function newTools(p: InstallPreview): ToolSpec[] | null {
  if (p.announced) return p.announced;
  return p.tools.length > 0 ? p.tools : null;
}
