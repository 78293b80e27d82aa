/**
 * The two questions an update asks of a package registry, each behind one small function that
 * takes the package's ecosystem, name and version, so the pinned install of packages into a
 * plugin's folder can answer them its own way:
 *
 *   latestVersion   what is the newest version of this package (npm's `latest` dist-tag, PyPI's
 *                   current release); an OCI registry is not asked (no registry API for tags is
 *                   reachable here), and says so
 *   stageVersion    a plugin folder that runs version X instead of the installed one: the
 *                   installed folder copied to a scratch folder, its manifest's pinned word
 *                   (`pkg@1.2.3`, `pkg==1.2.3`, `image:1.2`) and version changed, ready for the
 *                   installer's staged install (stage, try, move into place, keep the previous)
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { failure, type Result } from '../../../shared/failures';
import type { PluginSpec } from '../../../shared/plugin';
import { fetchJson } from '../http-json';
import { personNpmRegistry } from '../packages/config';
import { pinnedWord, type Ecosystem } from './pinned';

export interface PackageRegistries {
  /** npm's registry (the person's, where their environment or .npmrc names one). */
  npm: string;
  /** PyPI's JSON API root. */
  pypi: string;
}

export function defaultRegistries(env: NodeJS.ProcessEnv = process.env): PackageRegistries {
  return {
    npm: (personNpmRegistry(env, env.HOME ?? os.homedir()) || 'https://registry.npmjs.org').replace(/\/+$/, ''),
    pypi: (env.PLUGBOARD_PYPI_URL || 'https://pypi.org').replace(/\/+$/, ''),
  };
}

/** The newest version of a package on its registry. */
export async function latestVersion(
  pkg: { ecosystem: Ecosystem; name: string },
  registries: PackageRegistries = defaultRegistries(),
): Promise<Result<string>> {
  if (pkg.ecosystem === 'oci')
    return failure(
      'invalid_state',
      `Plugboard cannot ask an image registry for the tags of ${pkg.name}; update it from the catalog or install a newer image tag by hand`,
    );
  if (pkg.ecosystem === 'npm') {
    // The abbreviated packument: dist-tags and versions, without every version's readme.
    const url = `${registries.npm}/${pkg.name.replace('/', '%2f')}`;
    const got = await fetchJson(url, 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8');
    if (!got.ok) return got.code === 'not_found' ? failure('not_found', `npm has no package ${pkg.name}`) : got;
    const latest = (got.value as { 'dist-tags'?: { latest?: unknown } } | null)?.['dist-tags']?.latest;
    return typeof latest === 'string' && latest
      ? { ok: true, value: latest }
      : failure('registry_unreachable', `${url} names no latest version of ${pkg.name}`);
  }
  const url = `${registries.pypi}/pypi/${encodeURIComponent(pkg.name)}/json`;
  const got = await fetchJson(url);
  if (!got.ok) return got.code === 'not_found' ? failure('not_found', `PyPI has no package ${pkg.name}`) : got;
  const version = (got.value as { info?: { version?: unknown } } | null)?.info?.version;
  return typeof version === 'string' && version
    ? { ok: true, value: version }
    : failure('registry_unreachable', `${url} names no current version of ${pkg.name}`);
}

export interface StagedVersion {
  /** The plugin folder to install over the installed one. */
  dir: string;
  /** Removes the scratch folder (after the install copied it, or when the update is dropped). */
  discard(): void;
}

/**
 * The installed plugin's folder, copied to a scratch folder, with its manifest changed to run
 * `version`: every string of the manifest that is the old pinned word becomes the new one, and a
 * top-level `version` that was the old version becomes the new one.
 */
export function stageVersion(
  spec: PluginSpec,
  pkg: { ecosystem: Ecosystem; name: string; version: string; written?: string },
  version: string,
): Result<StagedVersion> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), `plugboard-update-${spec.id}-`));
  const discard = (): void => rmSync(scratch, { recursive: true, force: true });
  const dir = path.join(scratch, spec.id);
  try {
    cpSync(spec.dir, dir, { recursive: true, verbatimSymlinks: true });
    const manifest = path.join(dir, path.relative(spec.dir, spec.manifestPath));
    const doc = JSON.parse(readFileSync(manifest, 'utf8')) as unknown;
    const before = pkg.written ?? pinnedWord(pkg, pkg.version);
    const after = pinnedWord(pkg, version);
    let replaced = 0;
    const swap = (v: unknown): unknown => {
      if (v === before) {
        replaced++;
        return after;
      }
      if (Array.isArray(v)) return v.map(swap);
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]));
      return v;
    };
    const next = swap(doc) as Record<string, unknown>;
    if (replaced === 0) {
      discard();
      return failure(
        'install_refused',
        `${path.basename(manifest)} of ${spec.id} does not name ${before}, so Plugboard cannot move it to ${after}`,
      );
    }
    if (next.version === pkg.version) next.version = version;
    writeFileSync(manifest, `${JSON.stringify(next, null, 2)}\n`);
  } catch (e) {
    discard();
    return failure('io_error', `could not prepare ${spec.id} ${version}: ${(e as Error).message}`);
  }
  return { ok: true, value: { dir, discard } };
}
