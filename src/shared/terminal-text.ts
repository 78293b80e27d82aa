/**
 * Text for a terminal, escaped: what a plugin or a model wrote (and any preview of what will
 * run) reaches a terminal as characters to read, never as commands to it. A terminal obeys
 * escape sequences (ESC, and the C1 controls some terminals take for them): a clipboard write
 * (OSC 52), a line erased (CSI 2K), the cursor moved back over what was printed, a carriage
 * return that lets the next words overwrite the first; bidi controls reorder what is drawn, and
 * invisible characters hide words. Each becomes a visible escape: `\e` for ESC, `\r`, `\a`,
 * `\b`, `\x07`-style for the other C0 controls and DEL, `\x9b`-style for C1, `\u{202e}` for
 * bidi controls and invisible or tag characters. Newlines and tabs stay as they are.
 *
 * `plugboard … --raw` writes the text unescaped, for people who want the terminal to act on it.
 */

const NAMED: Record<string, string> = {
  '\x1b': '\\e',
  '\r': '\\r',
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\v': '\\v',
};

/** Everything a terminal may act on or not draw, but newline and tab. */
/* eslint-disable no-control-regex -- finding control characters is the point */
const UNSAFE =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2069\u3164\uFEFF\uFFA0\u{E0000}-\u{E007F}]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;
/* eslint-enable no-control-regex */

function escapeOne(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const cp = ch.codePointAt(0) ?? 0;
  if (cp <= 0xff) return `\\x${cp.toString(16).padStart(2, '0')}`;
  return `\\u{${cp.toString(16)}}`;
}

/** `text` with every control, bidi and invisible character written as an escape. */
export function escapeTerminal(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/** Whether `text` holds anything `escapeTerminal` would change. */
export function needsEscape(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const hit = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return hit;
}

/** Characters JSON.stringify leaves as they are but a terminal acts on or hides (C1, bidi, invisible). */
const JSON_UNSAFE =
  /[\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2069\u3164\uFEFF\uFFA0]|[\uDB40][\uDC00-\uDC7F]/g;

/**
 * A JSON text (as JSON.stringify writes it) with the characters it leaves raw but a terminal
 * would act on written as `\uXXXX` escapes: the same JSON value, safe on a screen.
 */
export function escapeJsonText(json: string): string {
  return json.replace(JSON_UNSAFE, (s) => {
    let out = '';
    for (let i = 0; i < s.length; i++) out += `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}
