/**
 * Finds the plugins: bundled ones (the app's `plugins/`) and installed ones (`<data>/plugins/`),
 * in every manifest format the host reads. A plugin that fails to load is listed with its
 * error, never skipped; an installed plugin cannot take a bundled plugin's id.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { PluginSpec } from '../../../shared/plugin';
import { describeManifestErrors, findManifest, loadManifest, MANIFEST_FILES } from '../manifests';

export type PluginSource = 'bundled' | 'installed';

export interface PluginRecord {
  id: string;
  source: PluginSource;
  dir: string;
  /** Absent when the plugin failed to load; `error` says why. */
  spec?: PluginSpec;
  error?: string;
  warnings: string[];
}

function folders(root: string | undefined): string[] {
  if (!root || !existsSync(root)) return [];
  return readdirSync(root)
    .filter((n) => !n.startsWith('.'))
    .map((n) => path.join(root, n))
    .filter((p) => {
      try {
        return statSync(p).isDirectory();
      } catch {
        return false;
      }
    })
    .sort();
}

export function loadRecord(dir: string, source: PluginSource): PluginRecord {
  const folderId = path.basename(dir);
  if (!findManifest(dir)) {
    return { id: folderId, source, dir, error: `no manifest: looked for ${MANIFEST_FILES.join(', ')}`, warnings: [] };
  }
  const m = loadManifest(dir);
  if (!m.ok) return { id: folderId, source, dir, error: `invalid manifest ${describeManifestErrors(m)}`, warnings: [] };
  return { id: m.spec.id, source, dir, spec: m.spec, warnings: m.warnings };
}

export function discover(bundledDir: string | undefined, installedDir: string): PluginRecord[] {
  const out: PluginRecord[] = [];
  const taken = new Map<string, PluginRecord>();
  for (const dir of folders(bundledDir)) {
    const r = loadRecord(dir, 'bundled');
    taken.set(r.id, r);
    out.push(r);
  }
  for (const dir of folders(installedDir)) {
    const r = loadRecord(dir, 'installed');
    const clash = taken.get(r.id);
    if (clash) {
      out.push({
        ...r,
        id: `${r.id}@${path.basename(dir)}`,
        spec: undefined,
        error: `the id "${r.id}" belongs to a ${clash.source} plugin (${clash.dir}); this copy is not loaded`,
      } as PluginRecord);
      continue;
    }
    taken.set(r.id, r);
    out.push(r);
  }
  return out;
}
