/**
 * A tool's definition: what a model reads of it and what a person approved when they allowed it
 * (its name, title, description, input schema, annotations, and its server's instructions to a model). Approvals are bound to it
 * (plugins/registry/definitions.ts hashes it): when it changes, the tool goes back to asking, and
 * the approval card and the Tools tab show what changed as a diff of its readable form.
 *
 * The diff is jsdiff's (a line diff is a solved problem); the readable form is ours: one line per
 * field, the description as written, the schema as indented JSON with its keys sorted, so that a
 * server sending the same schema with its keys in another order changes nothing.
 */
import { diffLines } from 'diff';
import type { ToolAnnotations, ToolSpec } from './plugin';

export interface ToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /**
   * Its server's instructions to a model (MCP), which the system prompt carries: changed after
   * the person allowed the tool, they could turn it to other ends (red team A02).
   */
  serverInstructions?: string;
}

/** One line of a definition's diff: kept (' '), removed ('-') or added ('+'). */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/**
 * How a tool's definition differs from the one the person's decisions were made for: `new` (a
 * tool that was not there then), or `changed`. `since`: when the earlier one was approved.
 */
export interface DefinitionChange {
  kind: 'new' | 'changed';
  lines: DiffLine[];
  since?: string;
}

export function definitionOf(t: ToolSpec): ToolDefinition {
  const title = t.title ?? t.annotations?.title;
  return {
    name: t.name,
    ...(title !== undefined ? { title } : {}),
    description: t.description,
    inputSchema: t.parameters,
    ...(t.annotations && Object.keys(t.annotations).length > 0 ? { annotations: t.annotations } : {}),
    ...(t.serverInstructions ? { serverInstructions: t.serverInstructions } : {}),
  };
}

/** JSON with every object's keys sorted: one text per value, whatever order its keys came in. */
export function canonicalJson(value: unknown, indent?: number): string {
  return JSON.stringify(sortKeys(value), null, indent);
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** The definition as a person reads it, one field after another. */
export function definitionText(d: ToolDefinition): string {
  const parts = [`name: ${d.name}`];
  if (d.title !== undefined) parts.push(`title: ${d.title}`);
  parts.push('description:', ...(d.description ? d.description.split('\n').map((l) => `  ${l}`) : ['  (none)']));
  parts.push(
    'input schema:',
    ...canonicalJson(d.inputSchema, 2)
      .split('\n')
      .map((l) => `  ${l}`),
  );
  const hints = Object.entries(d.annotations ?? {}).filter(([k]) => k !== 'title');
  if (hints.length) parts.push(`annotations: ${hints.map(([k, v]) => `${k}=${String(v)}`).join(', ')}`);
  if (d.serverInstructions)
    parts.push('its server’s instructions to a model:', ...d.serverInstructions.split('\n').map((l) => `  ${l}`));
  return `${parts.join('\n')}\n`;
}

/** Lines of a diff kept around each change; the rest of an unchanged stretch is folded to "…". */
const CONTEXT = 2;

/** What changed from `before` (null: the tool is new) to `after`, as lines. */
export function definitionChange(
  before: ToolDefinition | null,
  after: ToolDefinition,
  since?: string,
): DefinitionChange {
  const lines: DiffLine[] = [];
  for (const part of diffLines(before ? definitionText(before) : '', definitionText(after))) {
    const op: DiffLine['op'] = part.added ? '+' : part.removed ? '-' : ' ';
    for (const text of part.value.replace(/\n$/, '').split('\n')) lines.push({ op, text });
  }
  return { kind: before ? 'changed' : 'new', lines: fold(spellOutTwins(lines)), ...(since ? { since } : {}) };
}

/** The text with each character beyond ASCII followed by its code point. */
const spelled = (text: string): string =>
  text.replace(
    /[^\u0020-\u007e\t]/gu,
    (c) => `${c}⟦U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}⟧`,
  );

/**
 * A removed and an added line that read the same (the same letters, written with other code
 * points: `é` against `e` and a combining accent) are shown with their code points, so the
 * change a diff reports can be seen (red team A17: the two lines looked identical).
 */
function spellOutTwins(lines: DiffLine[]): DiffLine[] {
  const removed = new Map<string, string>();
  for (const l of lines) if (l.op === '-') removed.set(l.text.normalize('NFC'), l.text);
  const twins = new Set<string>();
  for (const l of lines) {
    if (l.op !== '+') continue;
    const was = removed.get(l.text.normalize('NFC'));
    if (was !== undefined && was !== l.text) twins.add(was).add(l.text);
  }
  if (twins.size === 0) return lines;
  return lines.map((l) => (l.op !== ' ' && twins.has(l.text) ? { ...l, text: spelled(l.text) } : l));
}

/** Unchanged stretches longer than the context around changes become one `…` line. */
function fold(lines: DiffLine[]): DiffLine[] {
  const near = lines.map((_, i) => lines.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some((l) => l.op !== ' '));
  const out: DiffLine[] = [];
  for (const [i, l] of lines.entries()) {
    if (l.op !== ' ' || near[i]) out.push(l);
    else if (out.at(-1)?.text !== '…' || out.at(-1)?.op !== ' ') out.push({ op: ' ', text: '…' });
  }
  return out;
}
