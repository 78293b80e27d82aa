/**
 * What `<plugin>` names on the command line: a plugin folder, a manifest file, or the id of an
 * installed plugin in the data directory.
 */
import { existsSync } from 'node:fs';
import { describeManifestErrors, loadManifest } from '../host/manifests';
import type { PluginSpec } from '../../shared/model';

export interface Target {
  spec: PluginSpec;
  warnings: string[];
  /** Set for an installed plugin: its capability grants are the allow-list. */
  installed: boolean;
}

export type TargetResult = { ok: true; target: Target } | { ok: false; message: string };

export function resolveTarget(arg: string): TargetResult {
  if (existsSync(arg) || arg.includes('/') || arg.includes('\\') || arg.startsWith('.')) {
    const m = loadManifest(arg);
    if (!m.ok) return { ok: false, message: `invalid plugin manifest ${describeManifestErrors(m)}` };
    return { ok: true, target: { spec: m.spec, warnings: m.warnings, installed: false } };
  }
  return { ok: false, message: `no plugin folder or manifest at "${arg}", and no installed plugin with that id` };
}
