/**
 * The scan of a plugin's tools that the install preview, the Tools tab and `plugboard plugins
 * install` show: descriptions that address the model rather than describe a tool ("ignore
 * previous instructions", "do not tell the user", instructions about other plugins' tools),
 * text that hides (visible-text.ts), and names that shadow another plugin's tool or the
 * assistant's own. Flags inform; they never block an install or a call.
 *
 * The phrases are the ones published tool-poisoning examples use; a description that trips one
 * is worth a person's reading, which is all a flag asks. Pure: shared by main, renderer and CLI.
 */
import { hasHidden, hiddenCounts, hiddenSummary } from './visible-text';

export type FlagKind = 'hidden-text' | 'addresses-model' | 'other-tools' | 'shadows';

export interface ToolFlag {
  tool: string;
  kind: FlagKind;
  /** One sentence for a person. */
  message: string;
  /** The words that tripped it, where there are some. */
  excerpt?: string;
}

export interface ScannedTool {
  name: string;
  description: string;
  title?: string;
  parameters?: Record<string, unknown>;
}

/** A tool of another plugin (what a name may shadow, or a description may direct the model to). */
export interface OtherTool {
  plugin: string;
  tool: string;
}

/** The assistant's own tools (loop/builtins.ts), offered beside every plugin's. */
const ASSISTANT_TOOLS = ['ask_user', 'find_tools'];

const ADDRESSES_MODEL: Array<[RegExp, string]> = [
  [
    /\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(of\s+)?(the\s+|your\s+)?(previous|prior|above|earlier|preceding|other|system)\s+(instructions?|prompts?|rules|messages|directions|guidance|guidelines|context|directives|commands|orders)/i,
    'tells the model to ignore its instructions',
  ],
  [
    /\b(forget|ignore|disregard)\s+(everything|all|anything)\s+(you\s+(were|have\s+been|’ve\s+been|'ve\s+been)\s+(told|given|taught)|(said|written)\s+(above|before))/i,
    'tells the model to ignore its instructions',
  ],
  [
    /\b(do\s+not|don['’]t|never|must\s+not)\s+(tell|inform|mention|reveal|notify|alert|show|say)\b[^.\n]{0,60}\b(user|human|person|them)\b/i,
    'tells the model to keep something from the person',
  ],
  [
    /\bwithout\s+(telling|informing|asking|notifying|alerting|mentioning\s+it\s+to)\s+the\s+(user|human|person)/i,
    'tells the model to act without the person knowing',
  ],
  [/<\s*\/?\s*(important|system|instructions?|admin)\s*>/i, 'carries instruction tags (<IMPORTANT>, <system>…)'],
  [
    /\b(you\s+are\s+now|new\s+instructions|system\s+prompt|as\s+an\s+ai|from\s+now\s+on)\b/i,
    'speaks to the model about its instructions',
  ],
  [
    /\b(before|after|instead\s+of|whenever\s+you)\s+(using|calling|invoking|running|you\s+use|you\s+call)\s+(any|every|all|other|another)\s+(other\s+)?(plugin['’]?s?\s+|server['’]?s?\s+)?tools?\b/i,
    'gives the model instructions about other tools',
  ],
  [
    /\b(read|send|include|pass|upload|append|attach)\b[^.\n]{0,40}(~\/\.ssh|id_rsa|\.aws\/credentials|\.env\b|mcp\.json|secrets?\.json|api[_ -]?keys?|passwords?|private\s+keys?)/i,
    'asks the model to move secrets or credentials',
  ],
  [
    /\b(with|containing|including|and\s+pass)\s+(all\s+)?(the\s+)?(user['’]s|their|your|the\s+person['’]s)\s+(api[_ -]?keys?|passwords?|credentials|tokens?|secrets?|private\s+keys?)/i,
    'asks the model to move secrets or credentials',
  ],
];

/**
 * The text with letters spelled apart joined again: `I.g.n.o.r.e p-r-e-v-i-o-u-s` reads as
 * "Ignore previous" to a model, and the phrases above are looked for in both forms.
 */
function joinedSpelling(text: string): string {
  return text.replace(/\b(?:\p{L}[.\-_*·•~]){2,}\p{L}\b/gu, (run) => run.replace(/[.\-_*·•~]/g, ''));
}

/** A name as it would be read: case and width folded, common look-alike letters mapped to Latin. */
export function foldName(name: string): string {
  const map: Record<string, string> = {
    а: 'a',
    е: 'e',
    о: 'o',
    р: 'p',
    с: 'c',
    у: 'y',
    х: 'x',
    і: 'i',
    ј: 'j',
    ѕ: 's',
    ԁ: 'd',
    ԛ: 'q',
    ԝ: 'w',
    ο: 'o',
    α: 'a',
    ε: 'e',
    ι: 'i',
    κ: 'k',
    ν: 'v',
    ρ: 'p',
    τ: 't',
    υ: 'u',
    χ: 'x',
  };
  return [...name.normalize('NFKC').toLowerCase()]
    .map((c) => map[c] ?? c)
    .join('')
    .replace(/[\s_-]+/g, '_');
}

function excerptAround(text: string, index: number, length: number): string {
  let from = Math.max(0, index - 30);
  let to = Math.min(text.length, index + length + 30);
  // Never half a character: a cut surrogate pair would show as a stray code point.
  if (/[\uDC00-\uDFFF]/.test(text[from] ?? '')) from--;
  if (/[\uD800-\uDBFF]/.test(text[to - 1] ?? '')) to++;
  return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`.replace(/\s+/g, ' ');
}

/** Another plugin's tool named in a description: `plugin:tool`, `plugin__tool`, or a distinctive name. */
function otherToolNamed(text: string, others: readonly OtherTool[]): { other: OtherTool; at: number } | null {
  for (const o of others) {
    const forms = [`${o.plugin}:${o.tool}`, `${o.plugin}__${o.tool}`.replace(/[^a-zA-Z0-9_]/g, '_')];
    // A bare name counts only when it cannot be an ordinary word ("read", "list"): it has an underscore or a capital inside.
    if (/[_]|[a-z][A-Z]/.test(o.tool)) forms.push(o.tool);
    for (const f of forms) {
      const re = new RegExp(`(^|[^\\w])${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w])`);
      const m = re.exec(text);
      if (m) return { other: o, at: m.index + m[1]!.length };
    }
  }
  return null;
}

/**
 * Flags for the tools of plugin `plugin`, against the tools of every other plugin (`others`,
 * the plugin's own left out by the caller or here).
 */
export function scanTools(plugin: string, tools: readonly ScannedTool[], others: readonly OtherTool[]): ToolFlag[] {
  const flags: ToolFlag[] = [];
  const elsewhere = others.filter((o) => o.plugin !== plugin);
  const byFolded = new Map<string, OtherTool[]>();
  for (const o of elsewhere) byFolded.set(foldName(o.tool), [...(byFolded.get(foldName(o.tool)) ?? []), o]);
  for (const t of tools) {
    const texts = [t.name, t.title ?? '', t.description, JSON.stringify(t.parameters ?? {})];
    const counts = hiddenCounts(t.name, { name: true });
    for (const s of texts.slice(1)) {
      if (!hasHidden(s)) continue;
      for (const [k, n] of Object.entries(hiddenCounts(s)))
        counts[k as keyof typeof counts] = (counts[k as keyof typeof counts] ?? 0) + n;
    }
    const summary = hiddenSummary(counts);
    if (summary)
      flags.push({
        tool: t.name,
        kind: 'hidden-text',
        message: `its name, description or schema hides text: ${summary}`,
      });
    const said = `${t.title ?? ''}\n${t.description}\n${JSON.stringify(t.parameters ?? {})}`;
    const joined = joinedSpelling(said);
    const seen = new Set<string>();
    for (const [re, what] of ADDRESSES_MODEL) {
      const inSaid = re.exec(said);
      const m = inSaid ?? (joined !== said ? re.exec(joined) : null);
      if (!m || seen.has(what)) continue;
      seen.add(what);
      flags.push({
        tool: t.name,
        kind: 'addresses-model',
        message: `its description ${what}${inSaid ? '' : ' (spelled apart)'}`,
        excerpt: excerptAround(inSaid ? said : joined, m.index, m[0].length),
      });
    }
    const named = otherToolNamed(said, elsewhere);
    if (named)
      flags.push({
        tool: t.name,
        kind: 'other-tools',
        message: `its description names ${named.other.plugin}:${named.other.tool}, a tool of another plugin`,
        excerpt: excerptAround(said, named.at, named.other.tool.length),
      });
    const folded = foldName(t.name);
    const same = byFolded.get(folded) ?? [];
    if (ASSISTANT_TOOLS.includes(folded))
      flags.push({ tool: t.name, kind: 'shadows', message: `its name is the assistant's own ${folded}` });
    for (const o of same)
      flags.push({
        tool: t.name,
        kind: 'shadows',
        message:
          o.tool === t.name
            ? `its name is also a tool of ${o.plugin}: a model may call one for the other`
            : `its name reads as ${o.plugin}:${o.tool} (${t.name} differs only in look-alike letters, case or width)`,
      });
  }
  return flags;
}
