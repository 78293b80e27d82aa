/**
 * What a plugin that died at its start said about why, from its stderr: the line a person would
 * look for (a Python exception, a Node error, the plugin's own "error: token malformed"), so the
 * headline of the failure names the cause instead of "exited during the handshake (code 1)"
 * (issue 21). And the setting that line blames, when it names exactly one of the plugin's
 * settings (its key, its environment variable or its title), so the panel can link to it.
 * Pure: tested on the stderr of real plugins.
 */
import type { Failure } from '../../../shared/failures';
import type { SettingSpec } from '../../../shared/plugin';

/** Python's last traceback line ("ModuleNotFoundError: No module named 'x'"), Node's "Error: …", and kin. */
const EXCEPTION =
  /^\s*(?:[A-Za-z_][\w.]*\.)?([A-Z]\w*?(?:Error|Exception)|Error|SystemExit|KeyboardInterrupt):\s*(.+)$/;
/** A line a program writes when it gives up: "error: …", "fatal: …", "panic: …", "[ERROR] …". */
const GIVING_UP = /^\s*(?:\[?\s*(?:error|fatal|panic|critical|err)\s*\]?\s*[:\-—]|\S*:\s*(?:error|fatal)\s*:)\s*(.+)$/i;
/** Words that mark a line as the reason, where no prefix says so. */
const REASON_WORDS =
  /\b(?:malformed|invalid|missing|not found|no such|denied|refused|unauthori[sz]ed|forbidden|expired|required|cannot|can't|could not|failed|unable)\b/i;
/** Lines that only frame an error: a traceback's header and frames, a stack frame, a source pointer. */
const FRAMING = /^\s*(?:Traceback \(most recent call last\)|File ".*", line \d+|at .+\(.+\)|at .+:\d+:\d+|\^+|~+)\s*$/;
const MAX_HEADLINE = 200;

function shorten(line: string): string {
  const one = line.trim().replace(/\s+/g, ' ');
  return one.length > MAX_HEADLINE ? `${one.slice(0, MAX_HEADLINE - 1)}…` : one;
}

/** The line of a failed start's stderr that says why, or undefined when nothing in it does. */
export function stderrHeadline(tail: readonly string[] | undefined): string | undefined {
  if (!tail || tail.length === 0) return undefined;
  const lines = tail.map((l) => l.trimEnd()).filter((l) => l.trim() !== '' && !FRAMING.test(l));
  // The last exception wins: with chained Python exceptions, the last one is the one that ended it.
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = EXCEPTION.exec(lines[i]);
    if (m) return shorten(m[1] === 'ModuleNotFoundError' ? missingModule(m[2]) : `${m[1]}: ${m[2]}`);
  }
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = GIVING_UP.exec(lines[i]);
    if (m) return shorten(m[1]);
  }
  for (let i = lines.length - 1; i >= 0; i--) if (REASON_WORDS.test(lines[i])) return shorten(lines[i]);
  return undefined;
}

function missingModule(rest: string): string {
  const name = /No module named '([^']+)'/.exec(rest)?.[1];
  return name ? `the Python module ${name} is missing (ModuleNotFoundError)` : `ModuleNotFoundError: ${rest}`;
}

function mentions(text: string, word: string | undefined): boolean {
  if (!word || word.length < 3) return false;
  const escaped = word.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^a-z0-9_])${escaped}($|[^a-z0-9_])`).test(text);
}

/**
 * The setting a headline blames: the one whose environment variable, key or title it names. When
 * it names none or several, none (a wrong link is worse than no link). Environment variables and
 * keys are the surer sign, so they are looked at first.
 */
export function blamedSetting(headline: string, settings: readonly SettingSpec[]): SettingSpec | undefined {
  const text = headline.toLowerCase();
  for (const pick of [
    (s: SettingSpec) => mentions(text, s.env),
    (s: SettingSpec) => mentions(text, s.key) || mentions(text, s.key.replace(/_/g, ' ')),
    (s: SettingSpec) => mentions(text, s.title),
    // The telling word of a key ("token" of api_token), where the plugin says it in its own words.
    (s: SettingSpec) => s.key.split(/[_\-\s]+|(?=[A-Z])/).some((w) => w.length >= 4 && mentions(text, w)),
  ]) {
    const found = settings.filter(pick);
    if (found.length === 1) return found[0];
    if (found.length > 1) return undefined;
  }
  return undefined;
}

/**
 * A failed start with its cause first: the stderr headline before what the host saw ("the plugin
 * exited during the handshake (…)"), and the setting it blames in `details.setting`.
 */
export function withHeadline(f: Failure, settings: readonly SettingSpec[]): Failure {
  const headline = stderrHeadline(f.details?.stderrTail);
  if (!headline) return f;
  const setting = blamedSetting(headline, settings);
  return {
    ...f,
    message: `${headline} — ${f.message}`,
    details: { ...f.details, ...(setting ? { setting: setting.key } : {}) },
  };
}
