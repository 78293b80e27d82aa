/**
 * Hiding secret setting values in everything a launch may show: the command line in failure
 * details and `plugboard check`, the plugin's stderr lines (its log and a failure's stderr tail),
 * its log messages, and the messages of failures it causes. A plugin that is given a key in its
 * arguments (`--api-key ${user_config.token}`) or environment often prints it back (its usage
 * line, its argv in a traceback, an error quoting the request), so the text is cleaned wherever it
 * leaves the host, not only where the host itself wrote the value.
 *
 * Values shorter than MIN_SECRET_CHARS are not hidden: a one-letter "secret" would mangle every
 * line it appears in, and hides nothing a person could not guess.
 */
import type { Failure } from '../../../shared/failures';

/** A sensitive setting's value, and the setting it belongs to (named in its place). */
export interface SecretValue {
  key: string;
  value: string;
}

export const MIN_SECRET_CHARS = 4;

export type Redact = (text: string) => string;

export const NO_REDACTION: Redact = (t) => t;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The value as a plugin may print it back: as it is in any case, `-` and `_` taken for each other
 * (upper-cased, or made an identifier), and inside base64 or base64url (a Basic auth header, a
 * token it encoded): for each of the three ways a value can sit in base64's groups, the characters
 * that depend on the value alone (red team X03: those forms reached a failure's stderr tail).
 */
function patternsOf(value: string): RegExp[] {
  const plain = [...value].map((c) => (c === '-' || c === '_' ? '[-_]' : escape(c))).join('');
  const encoded: string[] = [];
  const bytes = Buffer.from(value, 'utf8');
  for (let k = 0; k < 3; k++) {
    const b64 = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const core = b64.slice(Math.ceil((k * 4) / 3), Math.floor((k + bytes.length) / 3) * 4);
    if (core.length < 8) continue;
    encoded.push(escape(core), escape(core.replace(/\+/g, '-').replace(/\//g, '_')));
  }
  // Case folded for the value as it is; base64 is exact (its case is its content).
  return [new RegExp(plain, 'gi'), ...(encoded.length ? [new RegExp(encoded.join('|'), 'g')] : [])];
}

/** A function that replaces each secret value in a text, in the forms above, by `[secret KEY]`. */
export function redactor(secrets: readonly SecretValue[] | undefined): Redact {
  const list = (secrets ?? []).filter((s) => s.value.length >= MIN_SECRET_CHARS);
  if (list.length === 0) return NO_REDACTION;
  // Longest first, so a secret that contains another is hidden whole.
  list.sort((a, b) => b.value.length - a.value.length);
  const found = list.map((s) => ({ key: s.key, res: patternsOf(s.value) }));
  return (text) => {
    let out = text;
    for (const f of found) for (const re of f.res) out = out.replace(re, `[secret ${f.key}]`);
    return out;
  };
}

/** A failure with its message and the facts it carries cleaned. */
export function redactFailure<F extends Failure>(f: F, redact: Redact): F {
  if (redact === NO_REDACTION) return f;
  const out: F = { ...f, message: redact(f.message) };
  const d = f.details;
  if (d) {
    out.details = { ...d };
    if (d.command) out.details.command = d.command.map(redact);
    if (d.stderrTail) out.details.stderrTail = d.stderrTail.map(redact);
    if (d.cwd) out.details.cwd = redact(d.cwd);
    if (d.data !== undefined) out.details.data = redactValue(d.data, redact);
  }
  return out;
}

/** Any JSON-like value, its strings cleaned (a plugin's error data may quote its request). */
function redactValue(v: unknown, redact: Redact, depth = 0): unknown {
  if (typeof v === 'string') return redact(v);
  if (depth > 8 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => redactValue(x, redact, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactValue(x, redact, depth + 1)]));
}
