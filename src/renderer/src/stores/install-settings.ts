/**
 * What the person typed into the install preview's settings form, for the preview it belongs to
 * (its token): sent with `install.commit`, so the plugin is installed configured (issue 21). Only
 * fields the person touched are sent; an empty one leaves the default.
 */
import { create } from 'zustand';
import type { InstallPreviewView } from '../../../shared/contract';

interface InstallSettingsState {
  token: string | null;
  values: Record<string, string | boolean>;
}

export const useInstallSettings = create<InstallSettingsState>()(() => ({ token: null, values: {} }));

export function setInstallSetting(token: string, key: string, value: string | boolean): void {
  const s = useInstallSettings.getState();
  const values = s.token === token ? s.values : {};
  useInstallSettings.setState({ token, values: { ...values, [key]: value } });
}

/** The form's values for `install.commit`, typed as each setting is declared. */
export function installSettingsFor(
  token: string,
  preview: InstallPreviewView,
): Record<string, string | number | boolean | string[]> | undefined {
  const s = useInstallSettings.getState();
  if (s.token !== token) return undefined;
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const spec of preview.settings ?? []) {
    const v = s.values[spec.key];
    if (v === undefined) continue;
    if (typeof v === 'boolean') out[spec.key] = v;
    else if (v.trim() === '') continue;
    else if (spec.multiple)
      out[spec.key] = v
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
    else if (spec.type === 'number') out[spec.key] = Number(v);
    else out[spec.key] = spec.sensitive ? v : v.trim();
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
