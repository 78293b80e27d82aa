/**
 * What a person decides about each plugin: whether it is enabled, which of its tools are exposed,
 * which capabilities it is granted, and its settings. Each decision is checked, written to the
 * state file, audited (refusals too), and applied to the host at once: a disabled plugin stops, a
 * running plugin restarts with new grants or settings. Reads default to what a plugin that was
 * never touched gets: bundled plugins are granted what they request.
 */
/* eslint-disable max-lines -- one whole concern: the person's decisions about a plugin, each checked, written and audited the same way */
import path from 'node:path';
import { GRANTABLE_UNREQUESTED, requestedCapabilities, type FolderGrant } from '../../../shared/capabilities';
import { failure, type Done, type Failure, type Result } from '../../../shared/failures';
import type { ApprovalDefault, ToolPolicy } from '../../../shared/assistant';
import type { PluginSpec, ToolSpec } from '../../../shared/plugin';
import type { PluginHost } from '../../host';
import type { AuditAction, AuditEntry, AuditExtra, AuditLog } from '../audit';
import type { PluginBindings } from './bindings';
import type { PluginSettings } from './plugin-settings';
import type { RecordBook } from './records';
import { defaultPluginState, type PluginState, type StateStore } from './state';
import { acceptInto, changeKind } from './definitions';

export interface DecisionDeps {
  state: StateStore;
  audit: AuditLog;
  records: RecordBook;
  host: PluginHost;
  /** Set once the registry has made them (they read decisions back). */
  bindings(): PluginBindings;
  settings(): PluginSettings;
  /** A plugin's tools, declared and announced. */
  tools(id: string): ToolSpec[];
}

export class Decisions {
  constructor(private readonly deps: DecisionDeps) {}

  /** The person's decisions about a plugin; defaults for one never touched. */
  pluginState(id: string): PluginState {
    const saved = this.deps.state.plugin(id);
    if (saved) return saved;
    const rec = this.deps.records.get(id);
    // Bundled plugins ship with the app: what they request is granted until the person revokes it.
    return defaultPluginState(rec?.source === 'bundled' && rec.spec ? requestedCapabilities(rec.spec) : []);
  }

  /** The plugin's manifest, or why there is none. */
  loaded(id: string): Result<PluginSpec> {
    const rec = this.deps.records.get(id);
    if (!rec) return failure('not_found', `no plugin "${id}" is installed or bundled`);
    if (!rec.spec) return failure('manifest_invalid', `${id} could not be loaded: ${rec.error ?? 'unknown error'}`);
    return { ok: true, value: rec.spec };
  }

  /**
   * What a model's call to a tool gets: the person's choice for the tool, else the default the
   * person chose in Settings: `read-only` (unless changed) allows the read-only tools of bundled
   * plugins (their `auto_approved_tools`, or annotated read-only) and asks for everything else;
   * `ask` asks for every call; `allow` runs every call. What an installed plugin says of its own
   * tools (auto-approved, readOnlyHint) is a hint shown on the card, never a grant: MCP says
   * annotations are untrusted, and a plugin that lies about them is the attack. A tool whose
   * definition changed since the person's decisions (definitions.ts) asks, unless it is denied.
   */
  toolPolicy(id: string, tool: string): { policy: ToolPolicy; defaultPolicy: ToolPolicy; changed?: 'new' | 'changed' } {
    const rec = this.deps.records.get(id);
    const bundled = rec?.source === 'bundled';
    const t = this.deps.tools(id).find((x) => x.name === tool);
    const readOnly =
      bundled && (rec?.spec?.autoApprovedTools.includes(tool) === true || t?.annotations?.readOnlyHint === true);
    const chosen = this.approvalDefault();
    const defaultPolicy: ToolPolicy = chosen === 'read-only' ? (readOnly ? 'allow' : 'ask') : chosen;
    const state = this.pluginState(id);
    const policy = state.policies?.[tool] ?? defaultPolicy;
    const changed = !bundled && t ? changeKind(state, t) : false;
    if (changed && policy !== 'deny') return { policy: 'ask', defaultPolicy, changed };
    return { policy, defaultPolicy };
  }

  /** Records the current definitions of `names` as reviewed, where the plugin is not bundled (definitions.ts). */
  private accept(id: string, s: PluginState, names: readonly string[], seen?: string): void {
    if (this.deps.records.get(id)?.source !== 'bundled') acceptInto(s, this.deps.tools(id), names, seen);
  }

  approvalDefault(): ApprovalDefault {
    return this.deps.state.read().approvalDefault ?? 'read-only';
  }

  /** The default for tools with no policy of their own. Audited (plugin `*`: it applies to all). */
  async setApprovalDefault(policy: ApprovalDefault): Promise<Done> {
    const detail = `default approval set to ${policy}`;
    try {
      const line = { action: 'approval-default' as const, plugin: '*', ok: true, detail };
      await this.deps.state.update(
        (s) => {
          if (policy === 'read-only') delete s.approvalDefault;
          else s.approvalDefault = policy;
        },
        () => this.deps.audit.appendUndoable(line),
      );
    } catch (e) {
      return failure(
        'io_error',
        `could not save "${detail}": ${(e as Error).message}. Nothing was changed; free some disk space and try again`,
      );
    }
    return { ok: true, detail };
  }

  /**
   * The person's choice of policy for a tool; null goes back to the default. Audited. It is made
   * about the definition the person sees, which it accepts (`seen`: only if it is still the one
   * with that hash, the one on the card).
   */
  async setToolPolicy(id: string, tool: string, policy: ToolPolicy | null, seen?: string): Promise<Done> {
    if (!this.deps.records.has(id))
      return this.deps.audit.refused('tool-policy', id, failure('not_found', `no plugin "${id}"`), { tool });
    const known = this.deps.tools(id).map((t) => t.name);
    if (!known.includes(tool))
      return this.deps.audit.refused('tool-policy', id, failure('not_found', `${id} has no tool "${tool}"`), { tool });
    const { defaultPolicy } = this.toolPolicy(id, tool);
    const detail = `${id}:${tool} ${policy === null ? `back to the default (${defaultPolicy})` : `set to ${policy}`}`;
    return this.decide('tool-policy', id, detail, { tool }, (s) => {
      const p = { ...(s.policies ?? {}) };
      if (policy === null) delete p[tool];
      else p[tool] = policy;
      s.policies = p;
      this.accept(id, s, [tool], seen);
    });
  }

  /**
   * Writes a change to a plugin's decisions (defaults filled in) and says so. With `audit`, its
   * audit line is written with it: both or neither (StateStore.update). Rejects when the state
   * cannot be written, the file as it was.
   */
  async update(
    id: string,
    fn: (s: PluginState) => void,
    audit?: Omit<AuditEntry, 'at' | 'plugin' | 'ok'>,
  ): Promise<void> {
    const fallback = this.pluginState(id);
    const alongside = audit && (() => this.deps.audit.appendUndoable({ ...audit, plugin: id, ok: true }));
    await this.deps.state.update((state) => {
      const s = state.plugins[id] ?? structuredClone(fallback);
      fn(s);
      state.plugins[id] = s;
    }, alongside);
    this.deps.records.changed(id, 'state');
  }

  /**
   * A decision written with its audit line. A full disk (or any failed write) is a value naming
   * what could not be saved, with nothing changed: no state without its audit line, and no audit
   * line for a change that did not happen.
   */
  private async decide(
    action: AuditAction,
    id: string,
    detail: string,
    extra: AuditExtra,
    fn: (s: PluginState) => void,
  ): Promise<Done> {
    try {
      await this.update(id, fn, { action, detail, ...extra });
    } catch (e) {
      const why = failure(
        'io_error',
        `could not save "${detail}": ${(e as Error).message}. Nothing was changed; free some disk space and try again`,
      );
      return this.refusedIfPossible(action, id, why, extra);
    }
    return { ok: true, detail };
  }

  /** Audits a refusal where the log can take it (a full disk may refuse it too); answers with it. */
  private refusedIfPossible(action: AuditAction, id: string, why: Failure, extra: AuditExtra): Failure {
    try {
      this.deps.audit.refused(action, id, why, extra);
    } catch {
      // the log cannot take it either: the answer still says what happened
    }
    return why;
  }

  async setEnabled(id: string, enabled: boolean): Promise<Done> {
    const action: AuditAction = enabled ? 'enable' : 'disable';
    if (!this.deps.records.has(id))
      return this.deps.audit.refused(action, id, failure('not_found', `no plugin "${id}"`));
    const done = await this.decide(action, id, enabled ? 'enabled' : 'disabled', {}, (s) => {
      s.enabled = enabled;
    });
    if (!done.ok) return done;
    const spec = this.deps.records.get(id)?.spec;
    if (enabled && spec) await this.deps.bindings().rebind(spec);
    await this.deps.host.setEnabled(id, enabled);
    return done;
  }

  async setExposed(id: string, tool: string | undefined, exposed: boolean): Promise<Done> {
    const action: AuditAction = exposed ? 'expose' : 'unexpose';
    if (!this.deps.records.has(id))
      return this.deps.audit.refused(action, id, failure('not_found', `no plugin "${id}"`));
    if (tool !== undefined) {
      const known = this.deps.tools(id).map((t) => t.name);
      if (known.length > 0 && !known.includes(tool)) {
        return this.deps.audit.refused(
          action,
          id,
          failure('not_found', `${id} has no tool "${tool}" (it has: ${known.join(', ')})`),
          { tool },
        );
      }
    }
    return this.decide(
      action,
      id,
      `${tool === undefined ? id : `${id}:${tool}`} ${exposed ? 'exposed' : 'unexposed'}`,
      tool ? { tool } : {},
      (s) => {
        if (tool === undefined) s.exposed = exposed;
        else if (exposed) delete s.tools[tool];
        else s.tools[tool] = false;
        // Switching one tool on is a decision about the definition shown beside the switch.
        if (tool !== undefined && exposed) this.accept(id, s, [tool]);
      },
    );
  }

  grant(id: string, capabilities: string[], folders: FolderGrant[] = []): Promise<Done> {
    return this.changeGrants(id, capabilities, folders, true);
  }

  revoke(id: string, capabilities: string[], folders: FolderGrant[] = []): Promise<Done> {
    return this.changeGrants(id, capabilities, folders, false);
  }

  /**
   * Grants or revokes capabilities, and folders or files by path. What a plugin did not request
   * may be granted where it makes sense whatever the manifest could say: the network
   * (GRANTABLE_UNREQUESTED) and any folder (shown in its sandbox at the same path).
   */
  private async changeGrants(id: string, caps: string[], folders: FolderGrant[], grant: boolean): Promise<Done> {
    const action: AuditAction = grant ? 'grant' : 'revoke';
    const spec = this.loaded(id);
    if (!spec.ok) return this.deps.audit.refused(action, id, spec);
    const requested = requestedCapabilities(spec.value);
    const extra = { capabilities: caps, ...(folders.length > 0 ? { folders } : {}) };
    const unknown = grant ? caps.filter((c) => !requested.includes(c) && !GRANTABLE_UNREQUESTED.includes(c)) : [];
    if (unknown.length > 0) {
      const why = failure(
        'invalid_input',
        `${id} does not request ${unknown.join(', ')} (it requests: ${requested.join(', ') || 'nothing'}; ${GRANTABLE_UNREQUESTED.join(', ')} and folders may be granted to any plugin)`,
      );
      return this.deps.audit.refused(action, id, why, extra);
    }
    const relative = folders.find((f) => !path.isAbsolute(f.path));
    if (relative)
      return this.deps.audit.refused(
        action,
        id,
        failure('invalid_input', `"${relative.path}" is not an absolute path`),
        extra,
      );
    const said = [
      ...caps,
      ...folders.map((f) => (grant ? `${f.path} (${f.write ? 'read-write' : 'read-only'})` : f.path)),
    ];
    const done = await this.decide(action, id, `${grant ? 'granted' : 'revoked'} ${said.join(', ')}`, extra, (s) => {
      s.grants = grant ? [...new Set([...s.grants, ...caps])] : s.grants.filter((g) => !caps.includes(g));
      if (folders.length > 0) {
        const named = new Set(folders.map((f) => path.normalize(f.path)));
        const kept = (s.folders ?? []).filter((f) => !named.has(path.normalize(f.path)));
        const next = grant
          ? [...kept, ...folders.map((f) => ({ path: path.normalize(f.path), write: f.write }))]
          : kept;
        if (next.length > 0) s.folders = next;
        else delete s.folders;
      }
    });
    // Grants are read at launch (handshake checks, secrets in the environment): restart a running plugin.
    if (done.ok) {
      try {
        await this.deps.bindings().applyToRunning(spec.value);
      } catch (e) {
        // The decision stands (saved and audited); what could not follow it is said, not thrown bare.
        return failure(
          'io_error',
          `${done.detail} (saved), but ${id} could not be prepared to run with it: ${(e as Error).message}. Free some disk space, then restart ${id}`,
        );
      }
    }
    return done;
  }

  /**
   * Sets settings (see PluginSettings.configure); a running plugin restarts with them, and one
   * that was unconfigured or failed starts (PluginBindings.afterSettingsSaved).
   */
  async configure(id: string, values: Record<string, unknown>): Promise<Done> {
    const spec = this.loaded(id);
    if (!spec.ok) return this.deps.audit.refused('configure', id, spec);
    const wasUnconfigured = this.deps.settings().missing(id, spec.value.settings).length > 0;
    // Audited with the state write when it goes through (PluginSettings.configure).
    const r = await this.deps.settings().configure(id, spec.value.settings, values);
    if (!r.ok) return this.refusedIfPossible('configure', id, r, {});
    const then = await this.deps.bindings().afterSettingsSaved(spec.value, wasUnconfigured);
    return then ? { ok: true, detail: `${r.detail}; ${then}` } : r;
  }
}
