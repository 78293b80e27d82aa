/**
 * The expanded plugin's detail: tools and their exposure, capabilities and grants, settings.
 * Loaded when a plugin is expanded, reloaded when the server says it changed.
 */
import { create } from 'zustand';
import type { MissingGrant } from '../../../shared/failures';
import type { ToolPolicy } from '../../../shared/assistant';
import type { PluginDetail } from '../../../shared/contract';
import { failureOf, type Done } from '../../../shared/failures';
import { getApi } from '../api';
import { runOp } from './ops';
import { scheduleRefresh, usePlugins } from './plugins';
import { errorText } from './toasts';

export type DetailTab = 'tools' | 'permissions' | 'settings' | 'log' | 'about';

interface DetailState {
  expanded: string | null;
  /** The tab shown in the expanded detail. */
  tab: DetailTab;
  /** Bumped when something asks for the detail to be shown: the shown tab's panel takes focus. */
  focusTick: number;
  details: Record<string, PluginDetail | null | undefined>;
  errors: Record<string, string | undefined>;
}

export const usePluginDetail = create<DetailState>()(() => ({
  expanded: null,
  tab: 'tools',
  focusTick: 0,
  details: {},
  errors: {},
}));

function patch(id: string, fn: (d: PluginDetail) => PluginDetail): void {
  const d = usePluginDetail.getState().details[id];
  if (d) usePluginDetail.setState((s) => ({ details: { ...s.details, [id]: fn(d) } }));
}

function restore(id: string, before: PluginDetail | null | undefined): void {
  if (before) usePluginDetail.setState((s) => ({ details: { ...s.details, [id]: before } }));
}

/** Expands a plugin's detail (loading it), or collapses it when it is the expanded one. */
export function toggleDetail(id: string): void {
  const next = usePluginDetail.getState().expanded === id ? null : id;
  usePluginDetail.setState({ expanded: next, tab: 'tools' });
  if (next) void loadDetail(next);
}

export function setDetailTab(tab: DetailTab): void {
  usePluginDetail.setState({ tab });
}

/**
 * Shows a plugin's detail at a tab, from anywhere (a failure's "Open settings"): the panel opens,
 * the plugin expands, and the tab's panel takes focus.
 */
export function showDetail(id: string, tab: DetailTab): void {
  usePluginDetail.setState((s) => ({ expanded: id, tab, focusTick: s.focusTick + 1 }));
  void loadDetail(id);
}

/** Collapses the plugin's detail if it is the one expanded (it was uninstalled). */
export function collapseDetail(id: string): void {
  if (usePluginDetail.getState().expanded === id) usePluginDetail.setState({ expanded: null });
}

export async function loadDetail(id: string): Promise<void> {
  try {
    const d = await getApi().invoke('plugins.detail', { id });
    usePluginDetail.setState((s) => ({ details: { ...s.details, [id]: d }, errors: { ...s.errors, [id]: undefined } }));
  } catch (e) {
    usePluginDetail.setState((s) => ({ errors: { ...s.errors, [id]: errorText(e) } }));
  }
}

/** Exposes or hides one tool, or all of the plugin's tools when `tool` is null. */
export async function setExposed(id: string, tool: string | null, exposed: boolean): Promise<void> {
  const before = usePluginDetail.getState().details[id];
  if (before)
    patch(id, (d) => ({ ...d, tools: d.tools.map((t) => (tool === null || t.name === tool ? { ...t, exposed } : t)) }));
  const input = tool === null ? { id, exposed } : { id, tool, exposed };
  const ok = await runOp(
    () => getApi().invoke('plugins.setExposed', input),
    `${exposed ? 'Expose' : 'Hide'} ${tool ? `${id}:${tool}` : id}`,
  );
  if (!ok) restore(id, before);
  void loadDetail(id);
  scheduleRefresh();
}

/**
 * What a model's call to the tool gets: allow, ask or deny. Choosing the tool's default sends
 * null, so the tool follows its default again (and a later change of the default) rather than
 * pinning today's value.
 */
export async function setToolPolicy(id: string, tool: string, policy: ToolPolicy): Promise<void> {
  const before = usePluginDetail.getState().details[id];
  const t = before?.tools.find((x) => x.name === tool);
  patch(id, (d) => ({ ...d, tools: d.tools.map((x) => (x.name === tool ? { ...x, policy } : x)) }));
  const value = t && policy === t.defaultPolicy ? null : policy;
  const ok = await runOp(
    () => getApi().invoke('plugins.setToolPolicy', { id, tool, policy: value }),
    `Set what a model's call to ${id}:${tool} gets`,
  );
  if (!ok) restore(id, before);
  void loadDetail(id);
}

/** Accepts a tool's changed definition (every changed tool of the plugin without `tool`). */
export async function acceptDefinition(id: string, tool?: string): Promise<void> {
  await runOp(
    () => getApi().invoke('plugins.acceptDefinition', tool ? { id, tool } : { id }),
    `Accept the new definition of ${tool ? `${id}:${tool}` : id}`,
  );
  void loadDetail(id);
}

export async function setGranted(id: string, capability: string, granted: boolean): Promise<void> {
  const before = usePluginDetail.getState().details[id];
  patch(id, (d) => ({
    ...d,
    capabilities: d.capabilities.map((c) => (c.name === capability ? { ...c, granted } : c)),
  }));
  const cmd = granted ? 'plugins.grant' : 'plugins.revoke';
  const ok = await runOp(
    () => getApi().invoke(cmd, { id, capabilities: [capability] }),
    `${granted ? 'Grant' : 'Revoke'} ${capability}`,
  );
  if (!ok) restore(id, before);
  void loadDetail(id);
  scheduleRefresh();
}

/** Grants or revokes folders and files by path (whatever the plugin requested). */
export async function setFolderGranted(
  id: string,
  folder: { path: string; write: boolean },
  granted: boolean,
): Promise<boolean> {
  const cmd = granted ? 'plugins.grant' : 'plugins.revoke';
  const ok = await runOp(
    () => getApi().invoke(cmd, { id, capabilities: [], folders: [folder] }),
    `${granted ? 'Grant' : 'Revoke'} ${folder.path}`,
  );
  void loadDetail(id);
  scheduleRefresh();
  return ok;
}

/**
 * Gives a plugin the grant its failure says it lacks (the network, or a folder it is given), and
 * starts it again with it.
 */
export async function grantMissing(id: string, g: MissingGrant): Promise<void> {
  const ok = await runOp(
    () =>
      getApi().invoke('plugins.grant', {
        id,
        capabilities: g.kind === 'net' ? ['net'] : [],
        ...(g.kind === 'folder' ? { folders: [{ path: g.path, write: g.write }] } : {}),
      }),
    g.kind === 'net' ? 'Grant the network' : `Grant ${g.path}`,
  );
  // A running plugin restarts with a new grant by itself; a stopped or failed one is started.
  const state = usePlugins.getState().byId[id]?.health.state;
  if (ok && !['ready', 'busy', 'starting', 'restarting'].includes(state ?? ''))
    await runOp(() => getApi().invoke('plugins.start', { id }), `Start ${id}`, `${id} started with the grant`);
  void loadDetail(id);
  scheduleRefresh();
}

/** What saving settings came to; a thrown failure (the connection lost) is one too. */
export async function configurePlugin(id: string, values: Record<string, unknown>): Promise<Done> {
  let r: Done;
  try {
    r = await getApi().invoke('plugins.configure', { id, values });
  } catch (e) {
    r = failureOf(e);
  }
  // The form shows the stored values once this resolves, so they are fetched first.
  await loadDetail(id);
  scheduleRefresh();
  return r;
}

/** On `plugins.changed`: a loaded detail is refreshed, a removed plugin collapses. */
export function detailChanged(id: string): void {
  const s = usePluginDetail.getState();
  if (s.details[id] !== undefined || s.expanded === id) void loadDetail(id);
}
