/**
 * Approvals bound to definitions. What a person decided about a tool (its policy, "Always allow",
 * its exposure) was decided about one definition of it: its name, title, description, input
 * schema, annotations and its server's instructions (shared/definitions.ts). Each installed plugin keeps, in its state, the
 * definition of each tool the person's decisions apply to (`reviewed`), with its hash. When the
 * running plugin's definition differs (a list_changed, an update, a restart with other tools),
 * the tool is changed: every call asks, its card and the Tools tab show the diff, until the person
 * accepts the new one (Accept on the Tools tab, a policy chosen there, or "Always allow" on a
 * card); "Allow for this conversation" holds for the hash it was given for (tool-calls.ts).
 *
 * The first definitions are those the install preview's trial announced, which the person saw
 * (installer.ts: a server that shows other tools once installed asks again); without a trial, they
 * are taken on trust: those a plugin announces the first time it runs (or its manifest declares,
 * for protocols that announce nothing more) are recorded as reviewed; a
 * tool that appears later is new, and asks. Bundled plugins ship with the app: their definitions
 * are the app's own and are never held.
 */
import { createHash } from 'node:crypto';
import { canonicalJson, definitionChange, definitionOf, type DefinitionChange } from '../../../shared/definitions';
import type { ToolSpec } from '../../../shared/plugin';
import type { PluginState, Reviewed } from './state';

const hashes = new WeakMap<ToolSpec, string>();

/**
 * The hash of a tool's definition (sha256 of its canonical JSON). Kept per spec object: a running
 * plugin's tool list is the same objects until it announces another, so a call hashes nothing.
 */
export function definitionHash(t: ToolSpec): string {
  let h = hashes.get(t);
  if (h === undefined) {
    h = createHash('sha256')
      .update(canonicalJson(definitionOf(t)))
      .digest('hex');
    hashes.set(t, h);
  }
  return h;
}

export function reviewedOf(t: ToolSpec, at = new Date().toISOString()): Reviewed {
  return { hash: definitionHash(t), definition: definitionOf(t), at };
}

/**
 * Whether a tool's definition is not the one its plugin's decisions were made for: `new` (no
 * record of it while others are recorded), `changed`, or false. A plugin with no record at all
 * has had nothing to compare with yet (its first definitions are recorded as they come).
 */
export function changeKind(state: PluginState, t: ToolSpec): 'new' | 'changed' | false {
  const reviewed = state.reviewed;
  if (!reviewed) return false;
  const r = reviewed[t.name];
  if (!r) return 'new';
  return r.hash === definitionHash(t) ? false : 'changed';
}

const diffs = new Map<string, DefinitionChange>();

/** The diff a person is shown for a changed tool (kept per pair of hashes: the same change diffs once). */
export function changeOf(state: PluginState, t: ToolSpec): DefinitionChange | undefined {
  const kind = changeKind(state, t);
  if (!kind) return undefined;
  const r = state.reviewed?.[t.name];
  const key = `${r?.hash ?? 'none'}:${definitionHash(t)}`;
  let d = diffs.get(key);
  if (!d) {
    d = definitionChange(r?.definition ?? null, definitionOf(t), r?.at);
    diffs.set(key, d);
    if (diffs.size > 500) diffs.delete(diffs.keys().next().value as string);
  }
  return d;
}

/** `tools` as reviewed definitions, by name: a fresh install's, from its preview's trial. */
export function reviewedTools(tools: readonly ToolSpec[]): Record<string, Reviewed> {
  const at = new Date().toISOString();
  return Object.fromEntries(tools.map((t) => [t.name, reviewedOf(t, at)]));
}

/** The state with `tools` recorded as reviewed (the rest of the record kept). */
export function recordReviewed(s: PluginState, tools: readonly ToolSpec[]): void {
  const at = new Date().toISOString();
  s.reviewed = { ...(s.reviewed ?? {}) };
  for (const t of tools) s.reviewed[t.name] = reviewedOf(t, at);
}

/**
 * Records the current definitions of `names` as reviewed (with `seen`, only a tool whose hash it
 * is: what the person was shown). A plugin's first record takes every tool as it is.
 */
export function acceptInto(s: PluginState, all: readonly ToolSpec[], names: readonly string[], seen?: string): void {
  if (!s.reviewed) recordReviewed(s, all);
  recordReviewed(
    s,
    all.filter((t) => names.includes(t.name) && (seen === undefined || definitionHash(t) === seen)),
  );
}
