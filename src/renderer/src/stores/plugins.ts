/**
 * The plugin list and its live health. `health` events arrive often (every answered ping carries
 * a round trip), so they are applied once per frame; `plugins.changed` refetches the list.
 */
import { create } from 'zustand';
import type { PluginView } from '../../../shared/contract';
import type { HealthEvent } from '../../../shared/plugin';
import { getApi } from '../api';
import { createFrameBatcher } from './frame-batcher';
import { runOp } from './ops';
import { errorText } from './toasts';

export type PluginOp = 'enable' | 'start' | 'stop' | 'restart' | 'uninstall';

interface PluginsState {
  order: string[];
  byId: Record<string, PluginView>;
  loaded: boolean;
  loadError: string | null;
  /** The operation in flight per plugin, to disable its buttons meanwhile. */
  busy: Record<string, PluginOp | undefined>;
}

export const usePlugins = create<PluginsState>()(() => ({
  order: [],
  byId: {},
  loaded: false,
  loadError: null,
  busy: {},
}));

async function withBusy(id: string, op: PluginOp, fn: () => Promise<boolean>): Promise<boolean> {
  usePlugins.setState((s) => ({ busy: { ...s.busy, [id]: op } }));
  try {
    return await fn();
  } finally {
    usePlugins.setState((s) => ({ busy: { ...s.busy, [id]: undefined } }));
  }
}

export async function refreshPlugins(): Promise<void> {
  try {
    const list = await getApi().invoke('plugins.list', {});
    const byId: Record<string, PluginView> = {};
    for (const p of list) byId[p.id] = p;
    usePlugins.setState({ order: list.map((p) => p.id), byId, loaded: true, loadError: null });
  } catch (e) {
    usePlugins.setState({ loaded: true, loadError: errorText(e) });
  }
}

export async function setPluginEnabled(id: string, enabled: boolean): Promise<void> {
  const before = usePlugins.getState().byId[id];
  if (!before) return;
  // Optimistic: the switch moves at once; the health event and refetch confirm it.
  usePlugins.setState((s) => ({ byId: { ...s.byId, [id]: { ...before, enabled } } }));
  const ok = await withBusy(id, 'enable', () =>
    runOp(
      () => getApi().invoke('plugins.setEnabled', { id, enabled }),
      `${enabled ? 'Enable' : 'Disable'} ${before.name}`,
    ),
  );
  if (!ok)
    usePlugins.setState((s) => ({ byId: { ...s.byId, [id]: { ...(s.byId[id] ?? before), enabled: before.enabled } } }));
  scheduleRefresh();
}

export async function runLifecycle(id: string, op: 'start' | 'stop' | 'restart'): Promise<void> {
  const name = usePlugins.getState().byId[id]?.name ?? id;
  const verb = { start: 'Start', stop: 'Stop', restart: 'Restart' }[op];
  await withBusy(id, op, () => runOp(() => getApi().invoke(`plugins.${op}`, { id }), `${verb} ${name}`));
}

export async function uninstallPlugin(id: string): Promise<boolean> {
  const name = usePlugins.getState().byId[id]?.name ?? id;
  const ok = await withBusy(id, 'uninstall', () =>
    runOp(() => getApi().invoke('plugins.uninstall', { id }), `Uninstall ${name}`, `Uninstalled ${name}`),
  );
  if (ok) await refreshPlugins();
  return ok;
}

let refreshTimer: ReturnType<typeof setTimeout> | null = null;

/** Coalesces a burst of `plugins.changed` into one refetch, well within a second. */
export function scheduleRefresh(): void {
  if (refreshTimer !== null) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    void refreshPlugins();
  }, 120);
}

const healthBatch = createFrameBatcher<HealthEvent>((events) => {
  const byId = { ...usePlugins.getState().byId };
  let unknown = false;
  for (const h of events) {
    const p = byId[h.pluginId];
    if (p) byId[h.pluginId] = { ...p, health: h };
    else unknown = true;
  }
  usePlugins.setState({ byId });
  if (unknown) scheduleRefresh();
});

export function applyHealth(h: HealthEvent): void {
  healthBatch.push(h);
}
