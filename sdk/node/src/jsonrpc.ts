/**
 * The JSON-RPC 2.0 shapes G-Assist V2 uses, and the sorting of an incoming value into one of
 * them. Everything from the engine is `unknown` until classified here.
 */

export type RequestId = number | string;

/** JSON-RPC 2.0 codes, and G-Assist's own (-1 plugin error, -2 timeout, -3 rate limited). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  PluginError: -1,
  Timeout: -2,
  RateLimited: -3,
} as const;

export type Incoming =
  | { kind: 'request'; id: RequestId; method: string; params: Record<string, unknown> }
  | { kind: 'notification'; method: string; params: Record<string, unknown> }
  /** A response or error from the engine: it never sends one, so it is ignored. */
  | { kind: 'response' }
  | { kind: 'invalid'; id: RequestId | null; reason: string };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function classify(value: unknown): Incoming {
  if (!isRecord(value)) return { kind: 'invalid', id: null, reason: 'expected a JSON object' };
  const rawId = value.id;
  const id = typeof rawId === 'number' || typeof rawId === 'string' ? rawId : null;
  if (typeof value.method !== 'string') {
    if ('result' in value || 'error' in value) return { kind: 'response' };
    return { kind: 'invalid', id, reason: 'no method' };
  }
  const params = isRecord(value.params) ? value.params : {};
  if (id === null) return { kind: 'notification', method: value.method, params };
  return { kind: 'request', id, method: value.method, params };
}
