/**
 * Settings filled in the install preview's form (issue 21: installed configured, in one step).
 * They are checked against the package's declared settings before anything is installed, so a bad
 * value refuses the install with the setting named and nothing changed, and saved right after it.
 */
import { failure, type Failure, type Outcome } from '../../shared/failures';
import type { SettingSpec } from '../../shared/plugin';
import { coerceSetting, type SettingValue } from '../plugins';

export type FormValues = Record<string, string | number | boolean | string[] | null>;

/** The values the person gave: empty fields are no value (the default, or none, applies). */
export function givenValues(values: FormValues | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values ?? {})) {
    if (v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}

/** The first value that does not fit its setting, as a failure naming it; null when all fit. */
export function checkGiven(specs: readonly SettingSpec[], given: Record<string, unknown>): Failure | null {
  const c = coerceGiven(specs, given);
  return c.ok ? null : c;
}

/** The values given, each as its setting takes it; a failure names the first that does not fit. */
export function coerceGiven(
  specs: readonly SettingSpec[],
  given: Record<string, unknown>,
): Outcome<{ values: Record<string, SettingValue> }> {
  const values: Record<string, SettingValue> = {};
  for (const [key, v] of Object.entries(given)) {
    const spec = specs.find((s) => s.key === key);
    if (!spec) return failure('invalid_input', `the plugin has no setting "${key}"`);
    const c = coerceSetting(spec, v);
    if (!c.ok) {
      // A secret's value is never quoted back.
      const why = spec.sensitive ? `${key}: not a valid ${spec.type} (not shown: the setting is secret)` : c.message;
      return failure('invalid_input', `${spec.title || key}: ${why.slice(why.indexOf(':') + 2)}`);
    }
    values[key] = c.value;
  }
  return { ok: true, values };
}
