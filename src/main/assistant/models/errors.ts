/**
 * What went wrong with a model request, as a failure a person can act on: each provider's errors
 * (the AI SDK's APICallError, a stream cut short, an error event inside a stream, a server that
 * is not there) mapped to one code, with what to do. An API key never reaches the message: the
 * provider's own message is kept only when it cannot hold one.
 */
import { APICallError, RetryError } from 'ai';
import type { RetryInfo } from '../../../shared/assistant';
import { failure, type Failure } from '../../../shared/failures';

export interface ModelProblem {
  failure: Failure;
  /** Set when running the turn again may work (the UI offers Retry). */
  retry?: RetryInfo;
}

/** How long the provider asked to wait (retry-after-ms, retry-after in seconds or as a date). */
export function retryAfterMs(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(ms)) return Math.max(0, ms);
  const v = headers['retry-after'];
  if (v === undefined) return undefined;
  const s = Number(v);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The provider's message, with anything that looks like a key masked. */
function said(e: { message?: unknown }): string {
  const m = typeof e.message === 'string' ? e.message : '';
  return m.replace(/\b(sk|pk|rk|key|api|sess)[-_][A-Za-z0-9_-]{8,}/gi, '…').slice(0, 500);
}

function isContextTooLong(e: APICallError): boolean {
  const d = e.data as { error?: { code?: unknown; type?: unknown; message?: unknown } } | undefined;
  const text = `${e.message} ${typeof d?.error?.message === 'string' ? d.error.message : ''}`;
  return (
    d?.error?.code === 'context_length_exceeded' ||
    /prompt is too long|context length|maximum context|too many tokens/i.test(text)
  );
}

export function describeModelError(e: unknown, where: string): ModelProblem {
  const err = RetryError.isInstance(e) ? e.lastError : e;
  if (APICallError.isInstance(err)) {
    const status = err.statusCode;
    if (status === undefined) {
      return {
        failure: failure(
          'model_unreachable',
          `${where} could not be reached (${said(err)}): is the server running, and is the base URL right?`,
        ),
        retry: {},
      };
    }
    if (status === 401)
      return {
        failure: failure('model_refused', `${where} refused the API key (401): check the key in Settings → Models`),
      };
    if (status === 403)
      return {
        failure: failure(
          'model_refused',
          `${where} refused access (403: ${said(err)}): the key may not be allowed to use this model`,
        ),
      };
    if (status === 404)
      return {
        failure: failure('model_refused', `${where} answered 404 (${said(err)}): check the base URL and the model id`),
      };
    if (status === 429) {
      const afterMs = retryAfterMs(err.responseHeaders);
      const wait = afterMs !== undefined ? `; it asked to wait ${Math.ceil(afterMs / 1000)} s` : '';
      return {
        failure: failure('rate_limited', `${where} is rate-limiting requests (429)${wait}: retry later`),
        retry: afterMs !== undefined ? { afterMs } : {},
      };
    }
    if (status === 400 && isContextTooLong(err)) {
      return {
        failure: failure(
          'context_too_long',
          `the conversation is too long for this model (${said(err)}): start a new conversation, or choose a model that reads more`,
        ),
      };
    }
    // The stream had begun (200) and the connection closed before its end.
    if (status === 200)
      return {
        failure: failure(
          'model_error',
          `${where}'s answer broke off: the connection closed before the answer was complete. Retry`,
        ),
        retry: {},
      };
    if (status >= 500)
      return {
        failure: failure('model_error', `${where} failed (${status}: ${said(err)}): retry in a moment`),
        retry: {},
      };
    return { failure: failure('model_error', `${where} refused the request (${status}: ${said(err)})`) };
  }
  // An error event inside a stream arrives as the provider's own object, not an Error.
  const obj =
    typeof err === 'object' && err !== null ? (err as { message?: unknown; type?: unknown }) : { message: String(err) };
  if (/overloaded/i.test(String(obj.type ?? '')))
    return { failure: failure('model_error', `${where} is overloaded: retry in a moment`), retry: {} };
  return { failure: failure('model_error', `${where} failed: ${said(obj) || 'no message'}`), retry: {} };
}
