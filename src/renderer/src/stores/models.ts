/**
 * The models the person connected (Settings → Models, the composer's picker) and the model
 * servers found running on this computer (the "Connect a model" card). Refetched on
 * `models.changed`, so every window shows the same list.
 */
import { create } from 'zustand';
import type { DiscoveredServer, ModelCheck, ModelsView } from '../../../shared/assistant';
import type { CommandInput } from '../../../shared/contract';
import { failureOf, type Done, type Outcome } from '../../../shared/failures';
import { getApi } from '../api';
import { errorText } from './toasts';

interface ModelsState {
  view: ModelsView | null;
  loadError: string | null;
  /** Servers found on loopback; null until looked for. */
  discovered: DiscoveredServer[] | null;
  discovering: boolean;
}

export const useModels = create<ModelsState>()(() => ({
  view: null,
  loadError: null,
  discovered: null,
  discovering: false,
}));

/** A command's answer as an Outcome; a thrown failure (the connection lost, input refused) becomes one too. */
export async function attempt<T extends object>(call: () => Promise<Outcome<T>>): Promise<Outcome<T>> {
  try {
    return await call();
  } catch (e) {
    return failureOf(e);
  }
}

export async function loadModels(): Promise<void> {
  try {
    const view = await getApi().invoke('models.list', {});
    useModels.setState({ view, loadError: null });
  } catch (e) {
    useModels.setState({ loadError: errorText(e) });
  }
}

/** Loads the list unless it is loaded (events keep it fresh from then on). */
export function ensureModels(): void {
  if (useModels.getState().view === null) void loadModels();
}

export async function saveModel(input: CommandInput<'models.save'>): Promise<Done> {
  const r = await attempt(() => getApi().invoke('models.save', input));
  await loadModels();
  return r;
}

export async function removeModel(name: string): Promise<Done> {
  const r = await attempt(() => getApi().invoke('models.remove', { name }));
  await loadModels();
  return r;
}

export async function setDefaultModel(name: string): Promise<Done> {
  const r = await attempt(() => getApi().invoke('models.setDefault', { name }));
  await loadModels();
  return r;
}

export function testModel(input: CommandInput<'models.test'>): Promise<Outcome<ModelCheck>> {
  return attempt(() => getApi().invoke('models.test', input));
}

/** Looks for model servers on this computer (a fraction of a second: loopback probes only). */
export async function discoverModels(): Promise<void> {
  if (useModels.getState().discovering) return;
  useModels.setState({ discovering: true });
  try {
    useModels.setState({ discovered: await getApi().invoke('models.discover', {}) });
  } catch {
    // Nothing found is what the card then says; the provider form is offered either way.
    useModels.setState({ discovered: [] });
  } finally {
    useModels.setState({ discovering: false });
  }
}

/** The model a conversation answers with: its own, else the default; undefined when there is none. */
export function effectiveModel(view: ModelsView | null, own: string | null): string | undefined {
  if (!view) return undefined;
  if (own !== null && view.models.some((m) => m.name === own)) return own;
  return view.defaultModel ?? undefined;
}
