/**
 * The expanded plugin's detail: tools and their exposure, capabilities and grants, settings.
 * Loaded when a plugin is expanded, reloaded when the server says it changed.
 */
import { create } from 'zustand';
import type { OpResult, PluginDetail } from '../../../shared/contract';
import { getApi } from '../api';
import { runOp } from './ops';
import { scheduleRefresh } from './plugins';
import { errorText } from './toasts';

interface DetailState {
  expanded: string | null;
  details: Record<string, PluginDetail | null | undefined>;
  errors: Record<string, string | undefined>;
  toggle(id: string): void;
  load(id: string): Promise<void>;
  setExposed(id: string, tool: string | null, exposed: boolean): Promise<void>;
  setGranted(id: string, capability: string, granted: boolean): Promise<void>;
  configure(id: string, values: Record<string, unknown>): Promise<OpResult>;
}

export const usePluginDetail = create<DetailState>()((set, get) => {
  const patch = (id: string, fn: (d: PluginDetail) => PluginDetail): void => {
    const d = get().details[id];
    if (d) set((s) => ({ details: { ...s.details, [id]: fn(d) } }));
  };
  return {
    expanded: null,
    details: {},
    errors: {},
    toggle(id) {
      const next = get().expanded === id ? null : id;
      set({ expanded: next });
      if (next) void get().load(next);
    },
    async load(id) {
      try {
        const d = await getApi().invoke('plugins.detail', { id });
        set((s) => ({ details: { ...s.details, [id]: d }, errors: { ...s.errors, [id]: undefined } }));
      } catch (e) {
        set((s) => ({ errors: { ...s.errors, [id]: errorText(e) } }));
      }
    },
    async setExposed(id, tool, exposed) {
      const before = get().details[id];
      if (before) {
        patch(id, (d) => ({
          ...d,
          tools: d.tools.map((t) => (tool === null || t.name === tool ? { ...t, exposed } : t)),
        }));
      }
      const input = tool === null ? { id, exposed } : { id, tool, exposed };
      const ok = await runOp(() => getApi().invoke('plugins.setExposed', input), `${exposed ? 'Expose' : 'Hide'} ${tool ? `${id}:${tool}` : id}`);
      if (!ok && before) set((s) => ({ details: { ...s.details, [id]: before } }));
      void get().load(id);
      scheduleRefresh();
    },
    async setGranted(id, capability, granted) {
      const before = get().details[id];
      patch(id, (d) => ({ ...d, capabilities: d.capabilities.map((c) => (c.name === capability ? { ...c, granted } : c)) }));
      const cmd = granted ? 'plugins.grant' : 'plugins.revoke';
      const ok = await runOp(() => getApi().invoke(cmd, { id, capabilities: [capability] }), `${granted ? 'Grant' : 'Revoke'} ${capability}`);
      if (!ok && before) set((s) => ({ details: { ...s.details, [id]: before } }));
      void get().load(id);
      scheduleRefresh();
    },
    async configure(id, values) {
      let r: OpResult;
      try {
        r = await getApi().invoke('plugins.configure', { id, values });
      } catch (e) {
        r = { ok: false, message: errorText(e) };
      }
      // The form shows the stored values once this resolves, so they are fetched first.
      await get().load(id);
      scheduleRefresh();
      return r;
    },
  };
});

/** On `plugins.changed`: a loaded detail is refreshed, a removed plugin collapses. */
export function detailChanged(id: string): void {
  const s = usePluginDetail.getState();
  if (s.details[id] !== undefined || s.expanded === id) void s.load(id);
}
