/**
 * A new conversation's title, from its first message (issue 12: the raw command text made
 * titles like `/hello:count to=3 delay_ms=1`, the same for every repeated call). A tool call is
 * named by its plugin, its tool and what it was about: the argument that says the most (a
 * command, a path, a query, a name), else the first few values. A question to the model is its
 * first line, cut at a word. A title another conversation already has gets a number.
 */

export const TITLE_MAX = 60;
/** A conversation's title until its first message names it. */
export const NEW_TITLE = 'New conversation';

export interface TitleCall {
  pluginName: string;
  tool: string;
  args: Record<string, unknown>;
}

/** Argument names that usually carry what a call is about, best first. */
const TELLING = [
  'command',
  'query',
  'q',
  'prompt',
  'text',
  'topic',
  'title',
  'name',
  'path',
  'file',
  'url',
  'message',
  'content',
];

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Cuts at the last word boundary before `max`, with an ellipsis. */
export function clip(s: string, max = TITLE_MAX): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:–—-]+$/, '')}…`;
}

function humanTool(tool: string): string {
  return tool.replace(/[_-]+/g, ' ').trim();
}

function shown(v: unknown): string | null {
  if (typeof v === 'string') return oneLine(v) || null;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

/** What the call was about, in a few words, or '' when its arguments say nothing. */
function about(args: Record<string, unknown>): string {
  for (const key of TELLING) {
    const v = shown(args[key]);
    if (v) return v;
  }
  const firstText = Object.values(args)
    .map((v) => (typeof v === 'string' ? shown(v) : null))
    .find((v) => v);
  if (firstText) return firstText;
  return Object.entries(args)
    .map(([k, v]) => (shown(v) === null ? null : `${humanTool(k)} ${shown(v)}`))
    .filter((x): x is string => x !== null)
    .slice(0, 2)
    .join(', ');
}

export function titleOf(text: string, call?: TitleCall): string {
  if (call) {
    const head = `${call.pluginName}: ${humanTool(call.tool)}`;
    const what = about(call.args);
    return clip(what ? `${head} — ${what}` : head);
  }
  const firstLine =
    text
      .split('\n')
      .map(oneLine)
      .find((l) => l.length > 0) ?? '';
  return clip(firstLine) || 'Untitled';
}

/** `title`, or `title (2)`, `(3)`… when another conversation is already called that. */
export function distinctTitle(title: string, taken: Iterable<string>): string {
  const names = new Set(taken);
  if (!names.has(title)) return title;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${title.length + suffix.length > TITLE_MAX + 6 ? clip(title, TITLE_MAX - suffix.length) : title}${suffix}`;
    if (!names.has(candidate)) return candidate;
  }
}
