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

/** A function that replaces each secret value in a text by `[secret KEY]`. */
export function redactor(secrets: readonly SecretValue[] | undefined): Redact {
  const list = (secrets ?? []).filter((s) => s.value.length >= MIN_SECRET_CHARS);
  if (list.length === 0) return NO_REDACTION;
  // Longest first, so a secret that contains another is hidden whole.
  list.sort((a, b) => b.value.length - a.value.length);
  return (text) => {
    let out = text;
    for (const s of list) if (out.includes(s.value)) out = out.split(s.value).join(`[secret ${s.key}]`);
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
