/**
 * The registry's persistent state: per plugin, enablement, exposure (plugin and tool), the
 * capability grants and the non-sensitive setting values. One JSON file, written atomically under
 * a cross-process lock: a change re-reads the file, applies itself and writes it back, so two
 * processes changing different things at once both keep their change.
 *
 * Reads are cached and revalidated by the file's mtime and size, at most once per turn of the
 * event loop: a model's step reads every plugin's state several times in one go, and one stat
 * answers for all of them (another process's change is seen from the next turn on).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { FolderGrant } from '../../../shared/capabilities';
import { APPROVAL_DEFAULTS, TOOL_POLICIES, type ApprovalDefault, type ToolPolicy } from '../../../shared/assistant';
import type { SettingValue } from '../../host';
import type { InstallRecord } from '../install/pinned';
import { readJson, withFileLock, writeJsonAtomic } from '../../fs';
import type { ToolDefinition } from '../../../shared/definitions';

/** A tool's definition a person's decisions were made for (definitions.ts). */
export interface Reviewed {
  hash: string;
  definition: ToolDefinition;
  /** When it was recorded (ISO). */
  at: string;
}

export interface PluginState {
  enabled: boolean;
  /** The plugin as a whole is exposed (its tools can be called). */
  exposed: boolean;
  /** Per-tool exposure; a tool not listed is exposed. */
  tools: Record<string, boolean>;
  /** Granted capabilities: the plugin's allow-list. */
  grants: string[];
  /** Folders and files granted by path (shared/capabilities.ts FolderGrant); none when absent. */
  folders?: FolderGrant[];
  /** Non-sensitive setting values. Sensitive ones live in the secret store. */
  settings: Record<string, SettingValue>;
  /** Set for installed plugins: when, from where, which version, and what it is pinned to (install/pinned.ts). */
  installed?: InstallRecord;
  /** What a model's call to a tool gets, where the person chose (allow, ask, deny); the rest: the default. */
  policies?: Record<string, ToolPolicy>;
  /**
   * Per tool, the definition the person's decisions apply to (definitions.ts); absent until the
   * plugin's first definitions are recorded. A tool whose definition differs asks again.
   */
  reviewed?: Record<string, Reviewed>;
}

export interface StateFile {
  version: 1;
  plugins: Record<string, PluginState>;
  /** What a model's call gets for tools with no per-tool policy; absent: `read-only`. */
  approvalDefault?: ApprovalDefault;
}

const EMPTY: StateFile = { version: 1, plugins: {} };

export function defaultPluginState(grants: string[] = []): PluginState {
  return { enabled: true, exposed: true, tools: {}, grants, settings: {} };
}

/** Whether a plugin (or one of its tools) is exposed, by its state. */
export function exposedIn(s: PluginState, tool?: string): boolean {
  if (!s.enabled || !s.exposed) return false;
  return tool === undefined || s.tools[tool] !== false;
}

export class StateStore {
  private cache: { key: string; value: StateFile } | null = null;
  /** Set while the cache was checked against the file in this turn of the event loop. */
  private checked = false;

  constructor(private readonly file: string) {}

  /** The current state (cached until the file changes). */
  read(): StateFile {
    if (this.checked && this.cache) return this.cache.value;
    this.checked = true;
    setImmediate(() => (this.checked = false));
    let key: string;
    try {
      const st = statSync(this.file);
      key = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      key = 'missing';
    }
    if (this.cache?.key === key) return this.cache.value;
    const value = normalize(readJson<StateFile>(this.file, EMPTY));
    this.cache = { key, value };
    return value;
  }

  plugin(id: string): PluginState | undefined {
    return this.read().plugins[id];
  }

  /**
   * Read-modify-write under the lock. `fn` mutates a fresh copy; returning false skips the write.
   * Resolves with the state as written; rejects (the file as it was) when it cannot be written.
   */
  async update(fn: (state: StateFile) => boolean | void, alongside?: () => () => void): Promise<StateFile> {
    return withFileLock(this.file, () => {
      this.cache = null;
      this.checked = false;
      const state = structuredClone(this.read());
      if (fn(state) === false) return state;
      // `alongside` writes what must stand or fall with this change (its audit line) and returns
      // how to take it back: a failed write of the state takes it back, a failed `alongside`
      // leaves the state unwritten. Either way the two agree.
      const undo = alongside?.();
      try {
        writeJsonAtomic(this.file, state);
      } catch (e) {
        undo?.();
        throw e;
      }
      this.cache = null;
      this.checked = false;
      return state;
    });
  }
}

function normalize(raw: StateFile): StateFile {
  const plugins: Record<string, PluginState> = {};
  for (const [id, p] of Object.entries(raw?.plugins ?? {})) {
    const s: PluginState = {
      enabled: p.enabled !== false,
      exposed: p.exposed !== false,
      tools: { ...(p.tools ?? {}) },
      grants: Array.isArray(p.grants) ? p.grants.filter((g) => typeof g === 'string') : [],
      settings: { ...(p.settings ?? {}) },
    };
    if (p.installed) s.installed = p.installed;
    const folders = (Array.isArray(p.folders) ? p.folders : []).filter(
      (f) => typeof f?.path === 'string' && path.isAbsolute(f.path) && typeof f.write === 'boolean',
    );
    if (folders.length > 0) s.folders = folders.map((f) => ({ path: path.normalize(f.path), write: f.write }));
    const policies = Object.entries(p.policies ?? {}).filter(([, v]) =>
      (TOOL_POLICIES as readonly string[]).includes(v),
    );
    if (policies.length > 0) s.policies = Object.fromEntries(policies);
    // A record that is not one is no record: the tool asks (fail closed), it is never trusted.
    if (p.reviewed && typeof p.reviewed === 'object')
      s.reviewed = Object.fromEntries(
        Object.entries(p.reviewed).filter(
          ([, r]) => typeof r?.hash === 'string' && typeof r.definition === 'object' && r.definition !== null,
        ),
      );
    plugins[id] = s;
  }
  const d = raw?.approvalDefault;
  return { version: 1, plugins, ...(d && APPROVAL_DEFAULTS.includes(d) ? { approvalDefault: d } : {}) };
}
