/**
 * The registry's side of approvals bound to definitions (definitions.ts): a tool's change as a
 * person is shown it, the hash a conversation's allowance is given for, the first definitions of
 * an installed plugin recorded as they come, and the person accepting a changed one. It writes
 * the `reviewed` record of a plugin's state; the policies that read it are decisions.ts's.
 */
import type { DefinitionChange } from '../../../shared/definitions';
import { failure } from '../../../shared/failures';
import type { ToolSpec } from '../../../shared/plugin';
import type { AuditEntry, AuditLog } from '../audit';
import type { Done } from '../../../shared/failures';
import { acceptInto, changeKind, changeOf, definitionHash, recordReviewed } from './definitions';
import type { RecordBook } from './records';
import type { PluginState } from './state';

export interface DefinitionDeps {
  records: RecordBook;
  audit: AuditLog;
  tools(id: string): ToolSpec[];
  pluginState(id: string): PluginState;
  /** A change to the plugin's state, with its audit line when given: both or neither (Decisions.update). */
  update(id: string, fn: (s: PluginState) => void, audit?: Omit<AuditEntry, 'at' | 'plugin' | 'ok'>): Promise<void>;
}

export class DefinitionDecisions {
  constructor(private readonly deps: DefinitionDeps) {}

  private bundled(id: string): boolean {
    return this.deps.records.get(id)?.source === 'bundled';
  }

  /** How a tool's definition differs from the one the person's decisions were made for (none for bundled plugins). */
  change(id: string, tool: string): DefinitionChange | undefined {
    if (this.bundled(id)) return undefined;
    const t = this.deps.tools(id).find((x) => x.name === tool);
    return t ? changeOf(this.deps.pluginState(id), t) : undefined;
  }

  /** The hash of a tool's definition as the plugin gives it now. */
  hash(id: string, tool: string): string | undefined {
    const t = this.deps.tools(id).find((x) => x.name === tool);
    return t ? definitionHash(t) : undefined;
  }

  /**
   * Records the definitions a plugin gives the first time they are seen: taken on trust, as the
   * ones the person's decisions apply to. Nothing for bundled plugins, or once there is a record.
   */
  async recordFirst(id: string): Promise<void> {
    const rec = this.deps.records.get(id);
    if (!rec?.spec || this.bundled(id) || this.deps.pluginState(id).reviewed) return;
    const tools = this.deps.tools(id);
    if (tools.length === 0) return;
    try {
      // Bookkeeping, not a decision: not audited (the person's acceptances are).
      await this.deps.update(id, (s) => {
        // Another process may have recorded them meanwhile: its record stands.
        if (!s.reviewed) recordReviewed(s, tools);
      });
    } catch {
      // Not written (a full disk): the tools are compared with nothing yet, and recorded next time.
    }
  }

  /**
   * The person accepts a tool's definition as it is now (or every changed tool's, without `tool`):
   * its decisions apply to it from now on. With `seen`, only while the definition is still the one
   * with that hash (what the person was shown). Audited, refusals too.
   */
  async accept(id: string, tool?: string, seen?: string): Promise<Done> {
    const extra = tool ? { tool } : {};
    if (!this.deps.records.has(id))
      return this.deps.audit.refused('definition', id, failure('not_found', `no plugin "${id}"`), extra);
    const all = this.deps.tools(id);
    const state = this.deps.pluginState(id);
    const picked = tool === undefined ? all.filter((t) => changeKind(state, t)) : all.filter((t) => t.name === tool);
    if (tool !== undefined && picked.length === 0)
      return this.deps.audit.refused('definition', id, failure('not_found', `${id} has no tool "${tool}"`), extra);
    if (seen !== undefined && picked.some((t) => definitionHash(t) !== seen))
      return this.deps.audit.refused(
        'definition',
        id,
        failure(
          'invalid_state',
          `${id}:${tool ?? '*'} changed again since it was shown; look at the new definition before accepting it`,
        ),
        extra,
      );
    if (this.bundled(id)) return { ok: true, detail: `${id} is bundled: its definitions are the app's own` };
    const names = picked.map((t) => t.name);
    const detail = names.length
      ? `accepted the definition of ${names.map((n) => `${id}:${n}`).join(', ')}`
      : `${id} has no changed tool`;
    if (names.length === 0) return { ok: true, detail };
    try {
      await this.deps.update(id, (s) => acceptInto(s, all, names), { action: 'definition', detail, ...extra });
    } catch (e) {
      const why = failure(
        'io_error',
        `could not save "${detail}" to the state file: ${(e as Error).message}. Nothing was changed; free some disk space and try again`,
      );
      try {
        this.deps.audit.refused('definition', id, why, extra);
      } catch {
        // the log cannot take it either: the answer still says what happened
      }
      return why;
    }
    return { ok: true, detail };
  }
}
