/**
 * A plugin's tools: those its manifest declares, completed by those the running plugin announces
 * (MCP `tools/list`, G-Assist `commands`, rterm `exposed_tools`). A declared tool keeps its
 * description; an announced schema replaces a declared one that says nothing (no properties).
 * An announcement that changes the list (MCP `list_changed`) is published with what was added,
 * removed and changed (a definition: description, title, schema, annotations), so the palette and
 * the panel can follow without a reload; the first announcement is published too, so whoever binds
 * approvals to definitions can record the first ones.
 */
import type { Outcome } from '../../../shared/failures';
import { Disposable, Emitter } from '../../../shared/lifecycle';
import type { JsonSchema, ToolSpec } from '../../../shared/plugin';
import { validateArguments } from '../validate';

export interface ToolsChange {
  tools: ToolSpec[];
  added: string[];
  removed: string[];
  /** Tools whose definition changed (same name). */
  changed: string[];
  /** The plugin announced its tools for the first time (its first launch), rather than changed them. */
  initial: boolean;
}

/** The answer for a tool whose schema says nothing: one object, read only, for every such call. */
const NOTHING_TO_CHECK: Outcome<{ schema?: JsonSchema }> = Object.freeze({ ok: true });

export class ToolSet extends Disposable {
  private announced: ToolSpec[] | undefined;
  private merged: ToolSpec[] | null = null;
  private readonly _onDidChange = this._register(new Emitter<ToolsChange>());
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly declared: readonly ToolSpec[]) {
    super();
  }

  get all(): ToolSpec[] {
    if (this.merged) return this.merged;
    const out = new Map<string, ToolSpec>();
    for (const t of this.declared) out.set(t.name, t);
    for (const t of this.announced ?? []) {
      const d = out.get(t.name);
      if (!d || isEmptySchema(d.parameters)) out.set(t.name, d ? { ...d, parameters: t.parameters } : t);
      // What only the running server can say (its App, its icons) completes a declared tool too.
      const kept = out.get(t.name) as ToolSpec;
      if (kept !== t && (t.ui || t.icons))
        out.set(t.name, { ...kept, ...(t.ui ? { ui: t.ui } : {}), ...(t.icons ? { icons: t.icons } : {}) });
    }
    this.merged = [...out.values()];
    return this.merged;
  }

  /** What the running plugin announced, if it announces anything. */
  get announcedTools(): ToolSpec[] | undefined {
    return this.announced;
  }

  find(name: string): ToolSpec | undefined {
    for (const t of this.all) if (t.name === name) return t;
    return undefined;
  }

  /**
   * Checks a call's arguments against the tool's schema, when the schema says anything. The
   * schema checked is returned, so a better one announced later can be checked again.
   */
  checkArguments(tool: string, args: Record<string, unknown>): Outcome<{ schema?: JsonSchema }> {
    const known = this.find(tool);
    if (!known || isEmptySchema(known.parameters)) return NOTHING_TO_CHECK;
    return validateArguments(tool, known.parameters, args) ?? { ok: true, schema: known.parameters };
  }

  /**
   * Whether a call to `name` may go to the plugin. A plugin that declares or announces tools is
   * held to them; one that does neither (a generic JSON-RPC server, a plugin not yet launched that
   * declares nothing) is asked, and answers for itself.
   */
  permits(name: string): boolean {
    if (this.declared.length === 0 && !this.announced?.length) return true;
    return this.find(name) !== undefined;
  }

  announce(tools: ToolSpec[]): void {
    const was = new Map(this.all.map((t) => [t.name, t]));
    const initial = this.announced === undefined;
    this.announced = tools;
    this.merged = null;
    const after = new Set(this.all.map((t) => t.name));
    const added = [...after].filter((n) => !was.has(n));
    const removed = [...was.keys()].filter((n) => !after.has(n));
    const changed = this.all.filter((t) => {
      const b = was.get(t.name);
      return b !== undefined && b !== t && definitionKey(b) !== definitionKey(t);
    });
    if (initial || added.length > 0 || removed.length > 0 || changed.length > 0)
      this._onDidChange.fire({ tools: this.all, added, removed, changed: changed.map((t) => t.name), initial });
  }
}

/** What a model reads of a tool, as one string to compare. */
function definitionKey(t: ToolSpec): string {
  return JSON.stringify([t.name, t.title, t.description, t.parameters, t.annotations]);
}

export function isEmptySchema(s: Record<string, unknown>): boolean {
  const props = s.properties as Record<string, unknown> | undefined;
  return !props || Object.keys(props).length === 0;
}
