/**
 * The settings a package declares, for the install preview's form (issue 21: a plugin installed
 * configured in one step): each default as it would be used, with its placeholders resolved, so a
 * folder reads `/home/ada/Documents`, not `${HOME}/Documents`. Secrets have no default shown.
 */
import os from 'node:os';
import type { PluginSpec } from '../../../shared/plugin';
import { resolveSettingValues, type SettingValue } from '../../host';

export function settingDefaults(spec: Pick<PluginSpec, 'settings' | 'dir'>): Record<string, SettingValue> {
  const r = resolveSettingValues(spec.settings, {}, { dirname: spec.dir, home: os.homedir() });
  if (!('values' in r)) return {};
  const out: Record<string, SettingValue> = {};
  for (const s of spec.settings) {
    const v = r.values[s.key];
    if (v !== undefined && !s.sensitive) out[s.key] = v;
  }
  return out;
}
