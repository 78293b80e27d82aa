/**
 * What an update changes in a plugin's tools: the tools added and removed, and for each tool in
 * both versions whose description or input schema changed, that text as a line diff (jsdiff's
 * diffLines; a schema is compared as pretty JSON with its keys sorted, so a reordering is no
 * change). Either side may be unknown (an MCP server that declares no tools and has not run): the
 * answer says so instead of calling every tool added or removed. jsdiff is loaded when a diff is
 * first made: it is some hundred small modules, which every `plugboard plugins …` would load.
 */
import type { diffLines as DiffLines } from 'diff';
import type { ToolSpec } from '../../../shared/plugin';
import type { DiffLine, ToolChangesView, ToolChangeView } from '../../../shared/updates';

let jsdiff: Promise<{ diffLines: typeof DiffLines }> | undefined;

export async function toolChanges(
  before: readonly ToolSpec[] | null,
  after: readonly ToolSpec[] | null,
): Promise<ToolChangesView> {
  const empty = { added: [], removed: [], changed: [], unchanged: 0 };
  if (!before || !after) {
    const missing =
      !before && !after
        ? 'neither version’s tools are known'
        : !before
          ? 'the installed version’s tools are not known (it declares none and has not run)'
          : 'the new version’s tools are not known (it declares none, and its trial launch did not shake hands)';
    return { known: false, note: `${missing}: what changes in its tools shows once it runs`, ...empty };
  }
  const { diffLines } = await (jsdiff ??= import('diff'));
  const lineDiff = (a: string, b: string): DiffLine[] => linesOf(diffLines(withNewline(a), withNewline(b)));
  const old = new Map(before.map((t) => [t.name, t]));
  const now = new Map(after.map((t) => [t.name, t]));
  const brief = (t: ToolSpec): Pick<ToolSpec, 'name' | 'description'> => ({ name: t.name, description: t.description });
  const changed: ToolChangeView[] = [];
  let unchanged = 0;
  for (const [name, t] of now) {
    const o = old.get(name);
    if (!o) continue;
    const c: ToolChangeView = { name };
    if (o.description !== t.description) c.description = lineDiff(o.description, t.description);
    const a = canonical(o.parameters);
    const b = canonical(t.parameters);
    if (a !== b) c.schema = lineDiff(a, b);
    if (c.description || c.schema) changed.push(c);
    else unchanged++;
  }
  return {
    known: true,
    added: [...now.values()].filter((t) => !old.has(t.name)).map(brief),
    removed: [...old.values()].filter((t) => !now.has(t.name)).map(brief),
    changed,
    unchanged,
  };
}

/** jsdiff's parts as lines kept, removed and added, in order. */
function linesOf(parts: Array<{ value: string; added?: boolean; removed?: boolean }>): DiffLine[] {
  const out: DiffLine[] = [];
  for (const part of parts) {
    const op = part.added ? '+' : part.removed ? '-' : ' ';
    for (const text of part.value.replace(/\n$/, '').split('\n')) out.push({ op, text });
  }
  return out;
}

function withNewline(s: string): string {
  return s.endsWith('\n') ? s : `${s}\n`;
}

/** Pretty JSON with every object's keys sorted. */
export function canonical(v: unknown): string {
  return JSON.stringify(sortKeys(v), null, 2);
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/** A diff as text, `+`/`-`/` ` before each line (the CLI's form). */
export function diffText(lines: readonly DiffLine[]): string {
  return lines.map((l) => `${l.op} ${l.text}`).join('\n');
}
