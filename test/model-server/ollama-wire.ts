/**
 * Ollama's own API, the part a client uses to find an Ollama server and its models:
 * `GET /api/tags` (the pulled models) and `GET /api/version`. Chat goes over Ollama's
 * OpenAI-compatible `/v1`, which openai-wire.ts speaks.
 */
import { createHash } from 'node:crypto';
import type { JsonAnswer } from './plan';

export function ollamaTags(models: readonly string[]): JsonAnswer {
  return {
    status: 200,
    body: {
      models: models.map((name) => ({
        name,
        model: name,
        modified_at: '2025-01-01T00:00:00.000000000Z',
        size: 2_019_393_189,
        digest: createHash('sha256').update(name).digest('hex'),
        details: {
          parent_model: '',
          format: 'gguf',
          family: 'llama',
          families: ['llama'],
          parameter_size: '3.2B',
          quantization_level: 'Q4_K_M',
        },
      })),
    },
  };
}

export function ollamaVersion(): JsonAnswer {
  return { status: 200, body: { version: '0.12.6' } };
}
