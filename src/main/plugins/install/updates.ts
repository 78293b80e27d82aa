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
import { failure, type Outcome, type Result } from '../../../shared/failures';
import type { ToolSpec } from '../../../shared/plugin';
import type { ToolChangesView, UpdateCheckView, UpdateOrigin, UpdatePreviewView } from '../../../shared/updates';
import { readInstalledAs } from '../manifests';
import type { PluginRecord } from '../registry/discovery';
import type { PluginRegistry } from '../registry/registry';
import type { InstallPreview } from './installer';
import { defaultRegistries, type PackageRegistries } from './package-versions';
import { pinnedPackage, type InstallRecord } from './pinned';
import { originOf, sourceOrigin } from './update-origins';
import { toolChanges } from './tool-changes';

interface Pending {
  id: string;
  dir: string;
  discard(): void;
  record: Partial<InstallRecord>;
  version: string;
  /** The installer's preview of it (its staged copy, which confirming installs exactly). */
  previewToken: string;
  /** It was installed under another id than its manifest's (manifests/installed-as.ts): kept. */
  asId?: string;
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
    const o = originOf(this.registry, rec, this.registries);
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
    const o = opts.source
      ? { ok: true as const, value: sourceOrigin(this.registry, opts.source) }
      : originOf(this.registry, rec, this.registries);
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
    const p = await this.registry.installer.preview(staged.value.dir);
    if (!p.ok) {
      staged.value.discard();
      return p;
    }
    // Installed under another id, its new version is checked against the id its manifest gives.
    const installedAs = readInstalledAs(rec.dir);
    const expected = installedAs?.id === id ? installedAs.manifestId : id;
    if (p.preview.id !== expected) {
      this.registry.installer.cancelPreview(p.token);
      staged.value.discard();
      return failure(
        'install_refused',
        `the new version's id is "${p.preview.id}", not "${id}": it would install beside it, not over it`,
      );
    }
    const token = randomUUID();
    this.pending.set(token, {
      id,
      ...staged.value,
      version: to,
      previewToken: p.token,
      ...(expected !== id ? { asId: id } : {}),
    });
    return { ok: true, token, preview: await this.describe(id, from, p.preview.version, o.value.origin, p.preview) };
  }

  /** What installing `preview` over the installed plugin of its id changes in its tools (null: nothing installed). */
  async changesFor(preview: InstallPreview): Promise<ToolChangesView | null> {
    if (!preview.replaces) return null;
    return toolChanges(this.currentTools(preview.id), newTools(preview));
  }

  /** Installs a previewed update over the plugin, keeping the version it replaces for a rollback. */
  async commit(token: string): Promise<Outcome<{ detail: string; id: string; version: string }>> {
    const p = this.pending.get(token);
    if (!p) return failure('invalid_state', 'this update preview has expired; check for updates again');
    this.pending.delete(token);
    try {
      const r = await this.registry.installer.commitPreview(p.previewToken, {
        replace: true,
        grant: 'requested',
        ...(p.asId ? { id: p.asId } : {}),
      });
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
    const p = this.pending.get(token);
    if (p) this.registry.installer.cancelPreview(p.previewToken);
    p?.discard();
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
    const announced = this.registry.host.announcedTools(id);
    if (announced) return announced;
    const declared = this.registry.record(id)?.spec?.tools ?? [];
    return declared.length > 0 ? declared : null;
  }

  private async describe(
    id: string,
    from: string,
    to: string,
    origin: UpdateOrigin,
    p: InstallPreview,
  ): Promise<UpdatePreviewView> {
    const grants = this.registry.decisions.pluginState(id).grants;
    return {
      id,
      name: p.name,
      from,
      to,
      origin,
      command: p.command,
      package: p.package,
      trial: p.trial,
      changes: await toolChanges(this.currentTools(id), newTools(p)),
      newlyRequested: p.requested.filter((c) => !grants.includes(c)),
      warnings: p.warnings,
    };
  }
}

/** The new version's tools: announced by its trial, else declared; null when neither is known. */
function newTools(p: InstallPreview): ToolSpec[] | null {
  if (p.announced) return p.announced;
  return p.tools.length > 0 ? p.tools : null;
}
