/**
 * The assistant's settings (Settings → Assistant: the step cap and the budgets that decide what a
 * model request carries) and the tokens each model's answers took (Settings → Models). Both are
 * read when Settings opens; a save reads the settings back, so the form shows what the server
 * kept.
 */
import { create } from 'zustand';
import type { AssistantSettings, TokenTotals } from '../../../shared/assistant';
import type { CommandInput } from '../../../shared/contract';
import { getApi } from '../api';
import type { Done } from '../../../shared/failures';
import { attempt } from './models';
import { errorText } from './toasts';

export type ModelUsage = TokenTotals & { model: string };

interface AssistantSettingsState {
  settings: AssistantSettings | null;
  loadError: string | null;
  /** Tokens by model, over every conversation; null until read. */
  usage: ModelUsage[] | null;
}

export const useAssistantSettings = create<AssistantSettingsState>()(() => ({
  settings: null,
  loadError: null,
  usage: null,
}));

export async function loadAssistantSettings(): Promise<void> {
  try {
    useAssistantSettings.setState({ settings: await getApi().invoke('assistant.settings', {}), loadError: null });
  } catch (e) {
    useAssistantSettings.setState({ loadError: errorText(e) });
  }
}

export async function saveAssistantSettings(change: CommandInput<'assistant.configure'>): Promise<Done> {
  const r = await attempt(() => getApi().invoke('assistant.configure', change));
  await loadAssistantSettings();
  return r;
}

export async function loadModelUsage(): Promise<void> {
  try {
    useAssistantSettings.setState({ usage: await getApi().invoke('models.usage', {}) });
  } catch {
    // The rows then show no usage line; the models themselves are listed either way.
    useAssistantSettings.setState({ usage: [] });
  }
}
