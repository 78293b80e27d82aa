/**
 * The placeholders of MCPB's `mcp_config` and `user_config` defaults: `${__dirname}`, `${HOME}`,
 * `${DESKTOP}`, `${DOCUMENTS}`, `${DOWNLOADS}`, `${pathSeparator}` (or `${/}`) and
 * `${user_config.KEY}`. Defaults use them too (`"default": "${HOME}/Documents"` in the MCPB
 * examples) and may name another setting, so defaults are resolved recursively, with a guard
 * against settings that name each other.
 */
import path from 'node:path';
import { failure, type Failure } from '../../../shared/failures';
import type { SettingSpec } from '../../../shared/plugin';
import type { SettingValue } from './plan';

export interface PlaceholderContext {
  /** The plugin folder. */
  dirname: string;
  home: string;
  values: Record<string, SettingValue>;
}

const PLACEHOLDER = /\$\{([^}]+)\}/g;

/** The folders a placeholder may stand for, by name. */
export function knownDirs(home: string): Record<string, string> {
  return {
    HOME: home,
    DESKTOP: path.join(home, 'Desktop'),
    DOCUMENTS: path.join(home, 'Documents'),
    DOWNLOADS: path.join(home, 'Downloads'),
  };
}

/**
 * Substitutes placeholders in one string. An argument that is exactly `${user_config.KEY}` with a
 * list value expands into one argument per item (MCPB `multiple`), which is why this returns a list.
 */
export function substitute(text: string, ctx: PlaceholderContext, where: string): string[] | Failure {
  const whole = /^\$\{user_config\.([^}]+)\}$/.exec(text);
  if (whole) {
    const v = ctx.values[whole[1] as string];
    if (Array.isArray(v)) return v.map(String);
  }
  const dirs = knownDirs(ctx.home);
  let bad: string | null = null;
  const out = text.replace(PLACEHOLDER, (all, name: string) => {
    if (name === '__dirname') return ctx.dirname;
    if (name === 'pathSeparator' || name === '/') return path.sep;
    if (name in dirs) return dirs[name] as string;
    if (name.startsWith('user_config.')) {
      const v = ctx.values[name.slice('user_config.'.length)];
      if (v === undefined) return '';
      return Array.isArray(v) ? v.join(' ') : String(v);
    }
    bad ??= all;
    return all;
  });
  if (bad !== null) return failure('manifest_invalid', `${where} uses the unknown placeholder ${bad}`);
  return [out];
}

/**
 * A word that starts with a folder placeholder (`${__dirname}/…`, `${HOME}/…`) claims to be inside
 * that folder; `..` must not take it out (`${HOME}/../../bin/sh`). Returns the problem, or null.
 * Checked after substitution, on the normalized path, so no spelling gets past it.
 */
export function placeholderEscape(word: string, ctx: Pick<PlaceholderContext, 'dirname' | 'home'>): string | null {
  const m = /^\$\{(__dirname|HOME|DESKTOP|DOCUMENTS|DOWNLOADS)\}/.exec(word);
  if (!m) return null;
  const name = m[1] as string;
  const base = name === '__dirname' ? ctx.dirname : (knownDirs(ctx.home)[name] as string);
  const rest = word.slice(m[0].length).replace(/\$\{(pathSeparator|\/)\}/g, path.sep);
  const target = path.resolve(base, `.${path.sep}${rest}`);
  const rel = path.relative(base, target);
  if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) return null;
  return `"${word}" leaves ${name === '__dirname' ? 'the plugin folder' : `\${${name}}`} (it resolves to ${target})`;
}

/**
 * The value of each setting: the user's, else the default with its placeholders substituted.
 * Missing required ones are listed. A default that names a setting without a value leaves it
 * empty; defaults that name each other in a circle are an error naming the circle.
 */
export function resolveSettingValues(
  specs: SettingSpec[],
  given: Record<string, SettingValue>,
  ctx: Pick<PlaceholderContext, 'dirname' | 'home'>,
): { values: Record<string, SettingValue>; missing: SettingSpec[] } | Failure {
  const byKey = new Map(specs.map((s) => [s.key, s]));
  const done = new Map<string, SettingValue | undefined>();
  const visiting: string[] = [];

  const valueOf = (key: string): SettingValue | undefined | Failure => {
    if (done.has(key)) return done.get(key);
    const s = byKey.get(key);
    if (!s) return undefined;
    const user = given[key];
    if (user !== undefined) {
      done.set(key, user);
      return user;
    }
    if (s.default === undefined) {
      done.set(key, undefined);
      return undefined;
    }
    if (visiting.includes(key)) {
      const circle = [...visiting.slice(visiting.indexOf(key)), key].join(' → ');
      return failure('manifest_invalid', `the defaults of settings ${circle} refer to each other in a circle`);
    }
    visiting.push(key);
    const out = substituteDefault(s, ctx, valueOf);
    visiting.pop();
    if (!Array.isArray(out) && typeof out === 'object') return out;
    done.set(key, out);
    return out;
  };

  const values: Record<string, SettingValue> = {};
  const missing: SettingSpec[] = [];
  for (const s of specs) {
    const v = valueOf(s.key);
    if (typeof v === 'object' && !Array.isArray(v)) return v;
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) {
      if (s.required) missing.push(s);
      continue;
    }
    values[s.key] = v;
  }
  return { values, missing };
}

function substituteDefault(
  s: SettingSpec,
  ctx: Pick<PlaceholderContext, 'dirname' | 'home'>,
  valueOf: (key: string) => SettingValue | undefined | Failure,
): SettingValue | undefined | Failure {
  const d = s.default;
  if (typeof d !== 'string' && !Array.isArray(d)) return d;
  const items = Array.isArray(d) ? d : [d];
  const out: string[] = [];
  for (const item of items) {
    // The settings this default names, resolved first (recursively).
    const values: Record<string, SettingValue> = {};
    for (const m of item.matchAll(/\$\{user_config\.([^}]+)\}/g)) {
      const key = m[1] as string;
      const v = valueOf(key);
      if (typeof v === 'object' && !Array.isArray(v)) return v;
      if (v !== undefined) values[key] = v;
    }
    const r = substitute(item, { ...ctx, values }, `the default of setting ${s.key}`);
    if (!Array.isArray(r)) return r;
    out.push(...r);
  }
  return Array.isArray(d) ? out : out.join(' ');
}
