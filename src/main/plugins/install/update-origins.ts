/**
 * Where an installed plugin's other version comes from, and how a folder that runs it is staged:
 * the catalog entry its install record names (the entry written as an import, as at its install),
 * else the npm or PyPI package it is pinned to (package-versions.ts), else the folder or package
 * it was installed from, read again. Used by updates.ts; nothing here installs anything.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { failure, type Result } from '../../../shared/failures';
import type { UpdateOrigin } from '../../../shared/updates';
import { serverVersion, toImport } from '../catalog';
import { writeImportedPlugin } from '../import';
import { loadManifest } from '../manifests';
import type { PluginRecord } from '../registry/discovery';
import type { PluginRegistry } from '../registry/registry';
import { latestVersion, stageVersion, type PackageRegistries } from './package-versions';
import { pinnedPackage, type InstallRecord } from './pinned';
import { stage } from './stage';

/** Where a plugin's other version comes from, and how to stage it. */
export interface Origin {
  origin: UpdateOrigin;
  from: string;
  latest(): Promise<Result<string>>;
  /** A folder to install over the plugin that runs `version`, and the install record's new pin. */
  stage(version: string): Promise<Result<{ dir: string; discard(): void; record: Partial<InstallRecord> }>>;
}

export function originOf(registry: PluginRegistry, rec: PluginRecord, registries: PackageRegistries): Result<Origin> {
  const spec = rec.spec;
  if (!spec) return failure('invalid_state', `${rec.id} could not be loaded: ${rec.error ?? 'unknown error'}`);
  const record = registry.state.plugin(rec.id)?.installed;
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
        stage: (version) => stageFromCatalog(rec.id, catalog, version),
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
    const written = 'written' in pkg ? pkg.written : undefined;
    return {
      ok: true,
      value: {
        origin: pkg.ecosystem,
        from: label,
        latest: () => latestVersion(pkg, registries),
        stage: async (version) => {
          const s = stageVersion(spec, { ...pinned, written }, version);
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
  return { ok: true, value: sourceOrigin(registry, source) };
}

/** A folder, zip or bundle on disk: its version read from its manifest, installed as it is. */
export function sourceOrigin(registry: PluginRegistry, source: string): Origin {
  return {
    origin: 'source',
    from: source,
    latest: () => versionAt(registry, source),
    stage: async () => ({ ok: true, value: { dir: source, discard: () => {}, record: {} } }),
  };
}

/** The version of the package at `source` (a folder, zip or bundle), read without running it. */
async function versionAt(registry: PluginRegistry, source: string): Promise<Result<string>> {
  const m = loadManifest(source);
  if (m.ok) return { ok: true, value: m.spec.version };
  const staged = await stage(source, registry.paths);
  if (!staged.ok) return failure('install_refused', staged.message);
  staged.discard();
  return { ok: true, value: staged.spec.version };
}

async function stageFromCatalog(
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
