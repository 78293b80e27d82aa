/**
 * Inline tool invocation as people type it: `/tool key=value …` or `/plugin:tool key=value …`.
 * Values read as JSON when they parse (numbers, true/false, null, "quoted", [lists], {objects}),
 * as plain text otherwise; quote a value that has spaces. Errors say what was wrong and where.
 */

export interface SlashCall {
  plugin: string | null;
  tool: string;
  args: Record<string, unknown>;
}

export type Parsed = { ok: true; call: SlashCall } | { ok: false; message: string };

/** Splits on spaces outside quotes and brackets. */
function tokens(text: string): string[] | string {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote) {
      cur += ch;
      if (ch === '\\' && i + 1 < text.length) cur += text[++i];
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      cur += ch;
    } else if (ch === '[' || ch === '{') {
      depth++;
      cur += ch;
    } else if (ch === ']' || ch === '}') {
      depth--;
      cur += ch;
    } else if (/\s/.test(ch) && depth === 0) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (quote) return `unclosed ${quote} quote`;
  if (depth !== 0) return 'unbalanced brackets';
  if (cur) out.push(cur);
  return out;
}

function value(raw: string): unknown {
  if (raw.startsWith("'") && raw.endsWith("'") && raw.length >= 2) return raw.slice(1, -1).replace(/\\'/g, "'");
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function parseSlash(text: string): Parsed {
  const t = tokens(text.trim().replace(/^\//, ''));
  if (typeof t === 'string') return { ok: false, message: `could not read the command: ${t}` };
  const [head, ...rest] = t;
  if (!head) return { ok: false, message: 'type a tool name after /' };
  const colon = head.indexOf(':');
  const plugin = colon === -1 ? null : head.slice(0, colon);
  const tool = colon === -1 ? head : head.slice(colon + 1);
  if (!tool || plugin === '') return { ok: false, message: `"${head}" is not a tool name (use /tool or /plugin:tool)` };
  const args: Record<string, unknown> = {};
  for (const tok of rest) {
    const eq = tok.indexOf('=');
    if (eq <= 0) return { ok: false, message: `"${tok}" is not key=value` };
    args[tok.slice(0, eq)] = value(tok.slice(eq + 1));
  }
  return { ok: true, call: { plugin, tool, args } };
}
