/**
 * A configured model as the AI SDK's LanguageModel. Everything is passed explicitly: the provider
 * packages otherwise read OPENAI_API_KEY / ANTHROPIC_API_KEY and their base URLs from this
 * process's environment, and a model given by name (a string) would go to a hosted gateway.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { ModelConfig } from '../../../shared/assistant';

export const DEFAULT_BASE_URL: Record<Exclude<ModelConfig['provider'], 'openai-compatible'>, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
};

/** The API root requests go to. */
export function baseUrlOf(c: Pick<ModelConfig, 'provider' | 'baseURL'>): string {
  const given = c.baseURL?.trim().replace(/\/+$/, '');
  if (given) return given;
  return c.provider === 'openai-compatible' ? '' : DEFAULT_BASE_URL[c.provider];
}

/**
 * Models made, by their settings and key: making one builds its stream parsers (schemas), which
 * costs milliseconds a turn need not pay again. A few are kept; they hold nothing else.
 */
const made = new Map<string, LanguageModel>();
const KEEP = 8;

export function languageModel(c: ModelConfig, apiKey: string | undefined): LanguageModel {
  const key = JSON.stringify([c.provider, baseUrlOf(c), c.model, apiKey ?? '']);
  let m = made.get(key);
  if (!m) {
    m = makeModel(c, apiKey);
    made.set(key, m);
    if (made.size > KEEP) made.delete(made.keys().next().value as string);
  }
  return m;
}

function makeModel(c: ModelConfig, apiKey: string | undefined): LanguageModel {
  const baseURL = baseUrlOf(c);
  switch (c.provider) {
    case 'openai-compatible':
      // `includeUsage`: without it these servers are not asked for token counts.
      return createOpenAICompatible({ name: 'local', baseURL, includeUsage: true, ...(apiKey ? { apiKey } : {}) })(
        c.model,
      );
    case 'openai':
      // `.chat`: Chat Completions. The default model of this package is the Responses API.
      return createOpenAI({ baseURL, apiKey: apiKey ?? '' }).chat(c.model);
    case 'anthropic':
      return createAnthropic({ baseURL, apiKey: apiKey ?? '' })(c.model);
  }
}

/** The headers that authenticate a plain request to the provider (model lists). */
export function authHeaders(c: Pick<ModelConfig, 'provider'>, apiKey: string | undefined): Record<string, string> {
  if (c.provider === 'anthropic')
    return { 'anthropic-version': '2023-06-01', ...(apiKey ? { 'x-api-key': apiKey } : {}) };
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

/**
 * Whether a provider's models can be sent images. OpenAI's and Anthropic's current models take
 * them. An OpenAI-compatible server may run a text-only model (llama3.2) or a vision one (llava,
 * qwen2.5-vl): nothing in its API says which, so the image is sent and a text-only model's server
 * answers with its own error, which the turn shows.
 */
export function takesImages(provider: ModelConfig['provider']): boolean {
  return provider === 'openai' || provider === 'anthropic' || provider === 'openai-compatible';
}
