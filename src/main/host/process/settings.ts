/**
 * Setting values as people type them (`KEY=VALUE` on the command line, a form in the UI) checked
 * against the setting's declared type, with an error that names the setting and what was wrong.
 */
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SettingSpec } from '../../../shared/plugin';
import { failure, type Result } from '../../../shared/failures';
import type { SettingValue } from './plan';

export type Coerced = Result<SettingValue>;

function one(spec: SettingSpec, raw: unknown): Result<string | number | boolean> {
  const name = spec.key;
  switch (spec.type) {
    case 'number': {
      const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
      if (String(raw).trim() === '' || !Number.isFinite(n))
        return failure('invalid_input', `${name}: expected a number, got "${String(raw)}"`);
      if (spec.min !== undefined && n < spec.min)
        return failure('invalid_input', `${name}: ${n} is below the minimum ${spec.min}`);
      if (spec.max !== undefined && n > spec.max)
        return failure('invalid_input', `${name}: ${n} is above the maximum ${spec.max}`);
      return { ok: true, value: n };
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      const t = String(raw).trim().toLowerCase();
      if (['true', 'yes', 'on', '1'].includes(t)) return { ok: true, value: true };
      if (['false', 'no', 'off', '0'].includes(t)) return { ok: true, value: false };
      return failure('invalid_input', `${name}: expected true or false, got "${String(raw)}"`);
    }
    case 'directory':
    case 'file': {
      const text = String(raw).trim();
      if (!text) return failure('invalid_input', `${name}: expected a path`);
      const p = path.resolve(text.replace(/^~(?=$|[/\\])/, os.homedir()));
      let st;
      try {
        st = statSync(p);
      } catch {
        return failure('invalid_input', `${name}: ${p} does not exist`);
      }
      if (spec.type === 'directory' && !st.isDirectory())
        return failure('invalid_input', `${name}: ${p} is not a folder`);
      if (spec.type === 'file' && !st.isFile()) return failure('invalid_input', `${name}: ${p} is not a file`);
      return { ok: true, value: p };
    }
    default:
      return { ok: true, value: typeof raw === 'string' ? raw : String(raw) };
  }
}

/** Checks one setting's new value. A list is accepted for `multiple` settings only. */
export function coerceSetting(spec: SettingSpec, raw: unknown): Coerced {
  if (Array.isArray(raw)) {
    if (!spec.multiple) return failure('invalid_input', `${spec.key}: takes one value, got ${raw.length}`);
    const out: string[] = [];
    for (const r of raw) {
      const c = one(spec, r);
      if (!c.ok) return c;
      out.push(String(c.value));
    }
    return { ok: true, value: out };
  }
  const c = one(spec, raw);
  if (!c.ok) return c;
  return spec.multiple ? { ok: true, value: [String(c.value)] } : c;
}

/** How a value shows to a person: secrets masked. */
export function displayValue(spec: SettingSpec, value: SettingValue | undefined): string | null {
  if (value === undefined) return null;
  if (spec.sensitive) return '••••••••';
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/**
 * Checks several new values against a plugin's settings at once, as `plugins config` does: an
 * unknown key names the ones there are, and a bad secret's value is never quoted. `null` unsets.
 */
export function coerceSettings(
  id: string,
  specs: SettingSpec[],
  raw: Record<string, unknown>,
): { ok: true; values: Record<string, SettingValue | null> } | { ok: false; message: string } {
  const values: Record<string, SettingValue | null> = {};
  for (const [key, v] of Object.entries(raw)) {
    const spec = specs.find((s) => s.key === key);
    if (!spec)
      return failure(
        'invalid_input',
        `${id} has no setting "${key}" (it has: ${specs.map((s) => s.key).join(', ') || 'none'})`,
      );
    if (v === null) {
      values[key] = null;
      continue;
    }
    const c = coerceSetting(spec, v);
    if (!c.ok) {
      // The error would quote the value: a secret's value must not reach a log or a screen.
      return {
        ok: false,
        message: spec.sensitive
          ? `${key}: the value given is not a valid ${spec.type} (not shown: the setting is secret)`
          : c.message,
      };
    }
    values[key] = c.value;
  }
  return { ok: true, values };
}
