/**
 * The model form's data and rules, apart from its looks: a draft per provider with a sensible
 * base URL, what is missing or malformed before anything is sent, and the `models.save` and
 * `models.test` inputs a draft makes. API keys are never shown back: a draft only says whether a
 * key is stored, holds what was typed, and whether the person asked to remove it.
 */
import type { ModelCheck, ModelView, ProviderKind } from '../../../../shared/assistant';
import type { CommandInput } from '../../../../shared/contract';

export interface ModelDraft {
  /** The saved model's name, when editing one. */
  previousName?: string;
  name: string;
  provider: ProviderKind;
  baseURL: string;
  model: string;
  /** What was typed into the key field (empty: keep what is stored). */
  apiKey: string;
  /** A key is stored for the saved model. */
  hasKey: boolean;
  removeKey: boolean;
  makeDefault: boolean;
}

/** Where a provider's server usually is: Ollama's port for the OpenAI-compatible kind. */
export const DEFAULT_BASE_URL: Record<ProviderKind, string> = {
  'openai-compatible': 'http://127.0.0.1:11434/v1',
  openai: '',
  anthropic: '',
};

/** What an empty base URL means, for the field's placeholder. */
export const BASE_URL_HINT: Record<ProviderKind, string> = {
  'openai-compatible': 'http://127.0.0.1:11434/v1',
  openai: 'https://api.openai.com/v1 (leave empty)',
  anthropic: 'https://api.anthropic.com/v1 (leave empty)',
};

export const MODEL_HINT: Record<ProviderKind, string> = {
  'openai-compatible': 'llama3.2',
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-5',
};

export function newDraft(firstModel: boolean): ModelDraft {
  return {
    name: '',
    provider: 'openai-compatible',
    baseURL: DEFAULT_BASE_URL['openai-compatible'],
    model: '',
    apiKey: '',
    hasKey: false,
    removeKey: false,
    makeDefault: firstModel,
  };
}

/** The form for a configured model (an agent plugin's row has no Edit: it is a plugin, not a setting). */
export function draftOf(m: ModelView): ModelDraft {
  const provider = m.provider === 'agent-plugin' ? 'openai-compatible' : m.provider;
  return {
    previousName: m.name,
    name: m.name,
    provider,
    baseURL: m.baseURL ?? '',
    model: m.model,
    apiKey: '',
    hasKey: m.hasKey,
    removeKey: false,
    makeDefault: m.isDefault,
  };
}

/** Another provider: a base URL that was the old provider's usual one becomes the new one's. */
export function withProvider(d: ModelDraft, provider: ProviderKind): ModelDraft {
  const usual = d.baseURL.trim() === '' || d.baseURL.trim() === DEFAULT_BASE_URL[d.provider];
  return { ...d, provider, baseURL: usual ? DEFAULT_BASE_URL[provider] : d.baseURL };
}

export type DraftErrors = Partial<Record<'name' | 'baseURL' | 'model', string>>;

export function checkDraft(d: ModelDraft): DraftErrors {
  const errors: DraftErrors = {};
  const url = d.baseURL.trim();
  if (url === '' && d.provider === 'openai-compatible')
    errors.baseURL = 'An OpenAI-compatible server needs its address, like http://127.0.0.1:11434/v1.';
  else if (url !== '' && !/^https?:\/\/[^\s/]+/i.test(url))
    errors.baseURL = 'Start it with http:// or https://, like http://127.0.0.1:11434/v1.';
  if (d.model.trim() === '') errors.model = 'Which model the server should run, like ' + MODEL_HINT[d.provider] + '.';
  if (d.name.trim().length > 100) errors.name = 'At most 100 characters.';
  return errors;
}

/** The name it is saved under: the one typed, else the model id. */
export function nameOf(d: ModelDraft): string {
  return d.name.trim() || d.model.trim();
}

export function saveInput(d: ModelDraft): CommandInput<'models.save'> {
  const apiKey = d.apiKey !== '' ? d.apiKey : d.removeKey ? null : undefined;
  return {
    name: nameOf(d),
    ...(d.previousName !== undefined ? { previousName: d.previousName } : {}),
    provider: d.provider,
    baseURL: d.baseURL.trim() || null,
    model: d.model.trim(),
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(d.makeDefault ? { makeDefault: true } : {}),
  };
}

/** "Test connection" for the form as it is: the stored key is used unless one is typed or removed. */
export function testInput(d: ModelDraft): CommandInput<'models.test'> {
  const useStored = d.previousName !== undefined && d.apiKey === '' && !d.removeKey && d.hasKey;
  return {
    ...(useStored ? { name: d.previousName } : {}),
    provider: d.provider,
    baseURL: d.baseURL.trim() || null,
    ...(d.model.trim() ? { model: d.model.trim() } : {}),
    ...(d.apiKey !== '' ? { apiKey: d.apiKey } : {}),
  };
}

export function checkText(c: ModelCheck): string {
  const n = c.models.length;
  return `Connected in ${c.latencyMs} ms, ${n === 0 ? 'no model listed' : n === 1 ? '1 model' : `${n} models`}`;
}
