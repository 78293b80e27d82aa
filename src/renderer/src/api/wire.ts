/**
 * Reads one WebSocket frame from the server. Frames are `unknown` until checked here. This is on
 * the stream hot path (one frame per chunk, possibly 100,000 of them), so it is a hand-written
 * guard of the envelope rather than a schema library call; payloads are typed by the contract.
 */
import { EVENT_NAMES, type EventName, type WsServerMessage } from '../../../shared/contract';
import { failure, FAILURE_CODES, type FailureCode, type FailureDetails } from '../../../shared/failures';

const eventNames = new Set<string>(EVENT_NAMES);
const failureCodes = new Set<string>(FAILURE_CODES);
const isFailureCode = (c: string): c is FailureCode => failureCodes.has(c);

export function parseServerMessage(raw: unknown): WsServerMessage | null {
  if (typeof raw !== 'string') return null;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const m = data as Record<string, unknown>;
  if (m.kind === 'event') {
    if (typeof m.name !== 'string' || !eventNames.has(m.name)) return null;
    return { kind: 'event', name: m.name as EventName, payload: m.payload };
  }
  if (m.kind === 'result' && typeof m.id === 'number') {
    if (m.ok === true) return { kind: 'result', id: m.id, ok: true, value: m.value };
    if (m.ok === false) {
      const code = typeof m.code === 'string' && isFailureCode(m.code) ? m.code : 'internal_error';
      const message = typeof m.message === 'string' ? m.message : 'The server reported an error.';
      const details = typeof m.details === 'object' && m.details !== null ? (m.details as FailureDetails) : undefined;
      return { kind: 'result', id: m.id, ...failure(code, message, details) };
    }
  }
  return null;
}
