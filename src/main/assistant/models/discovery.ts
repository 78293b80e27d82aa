/**
 * Reaching a model's server without a conversation: the models it lists (`GET {base}/models` for
 * OpenAI-compatible servers, OpenAI and Anthropic; Ollama's `/api/tags` where that is missing),
 * "Test connection" (the time to an answer, or the precise error), and the servers running on this
 * computer (Ollama, LM Studio, llama.cpp), probed on loopback only and quickly.
 */
import { APICallError } from 'ai';
import type { DiscoveredServer, ModelCheck, ModelConfig } from '../../../shared/assistant';
import { failure, type Outcome } from '../../../shared/failures';
import { describeModelError } from './errors';
import { authHeaders, baseUrlOf } from './providers';

const LIST_MS = 10_000;
const PROBE_MS = 400;

/** A plain GET, failing as the SDK does (APICallError), so errors read the same as in a chat. */
async function getJson(url: string, headers: Record<string, string>, ms: number): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { headers, signal: AbortSignal.timeout(ms) });
  } catch (e) {
    throw new APICallError({
      message: `Cannot connect to API: ${(e as Error).message}`,
      url,
      requestBodyValues: {},
      cause: e,
      isRetryable: true,
    });
  }
  const text = await res.text();
  if (!res.ok) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
    const message = (data as { error?: { message?: string } } | undefined)?.error?.message ?? res.statusText;
    throw new APICallError({
      message,
      url,
      requestBodyValues: {},
      statusCode: res.status,
      responseHeaders: Object.fromEntries(res.headers),
      responseBody: text,
      data,
    });
  }
  return JSON.parse(text) as unknown;
}

function ids(body: unknown): string[] {
  const b = body as { data?: Array<{ id?: unknown }>; models?: Array<{ name?: unknown; model?: unknown }> };
  if (Array.isArray(b.data)) return b.data.map((m) => m.id).filter((x): x is string => typeof x === 'string');
  if (Array.isArray(b.models))
    return b.models.map((m) => m.name ?? m.model).filter((x): x is string => typeof x === 'string');
  return [];
}

/** Ollama's own API root for an OpenAI-compatible base URL ending in /v1. */
function ollamaRoot(base: string): string {
  return base.replace(/\/v1$/, '');
}

export async function listModels(
  c: Pick<ModelConfig, 'provider' | 'baseURL'>,
  apiKey: string | undefined,
  ms = LIST_MS,
): Promise<string[]> {
  const base = baseUrlOf(c);
  try {
    return ids(await getJson(`${base}/models`, authHeaders(c, apiKey), ms));
  } catch (e) {
    // Ollama before 0.1.24 has no /v1/models; its own list is at the root.
    if (c.provider === 'openai-compatible' && APICallError.isInstance(e) && e.statusCode === 404)
      return ids(await getJson(`${ollamaRoot(base)}/api/tags`, {}, ms));
    throw e;
  }
}

/** "Test connection": how long the server took to list its models, or the precise error. */
export async function checkModel(c: ModelConfig, apiKey: string | undefined): Promise<Outcome<ModelCheck>> {
  const where = `${c.name || c.model} (${baseUrlOf(c) || 'no base URL'})`;
  if (c.provider === 'openai-compatible' && !baseUrlOf(c))
    return failure('invalid_input', 'an OpenAI-compatible server needs its base URL');
  const started = performance.now();
  let models: string[];
  try {
    models = await listModels(c, apiKey);
  } catch (e) {
    return describeModelError(e, where).failure;
  }
  const latencyMs = Math.round(performance.now() - started);
  if (models.length > 0 && c.model && !models.includes(c.model)) {
    return failure(
      'model_refused',
      `${where} answered in ${latencyMs} ms, but has no model "${c.model}" (it has: ${models.slice(0, 20).join(', ')}${models.length > 20 ? ', …' : ''})`,
    );
  }
  return { ok: true, latencyMs, models };
}

/** Where local model servers listen by default. */
export const LOCAL_SERVERS: ReadonlyArray<Omit<DiscoveredServer, 'models'>> = [
  { kind: 'ollama', title: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1' },
  { kind: 'lmstudio', title: 'LM Studio', baseURL: 'http://127.0.0.1:1234/v1' },
  { kind: 'llamacpp', title: 'llama.cpp server', baseURL: 'http://127.0.0.1:8080/v1' },
];

/**
 * The model servers running here, on their usual ports, loopback only. All are asked at once,
 * each for a moment: a port with nothing behind it answers at once, a busy one is left out.
 */
export async function discoverLocal(
  servers: ReadonlyArray<Omit<DiscoveredServer, 'models'>> = LOCAL_SERVERS,
): Promise<DiscoveredServer[]> {
  const found = await Promise.all(
    servers.map(async (s) => {
      try {
        return {
          ...s,
          models: await listModels({ provider: 'openai-compatible', baseURL: s.baseURL }, undefined, PROBE_MS),
        };
      } catch {
        return null;
      }
    }),
  );
  return found.filter((s): s is DiscoveredServer => s !== null);
}
