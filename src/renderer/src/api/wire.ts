/**
 * Reads one WebSocket frame from the server. Frames are `unknown` until checked here. This is on
 * the stream hot path (one frame per chunk, possibly 100,000 of them), so it is a hand-written
 * guard of the envelope rather than a schema library call; payloads are typed by the contract.
 */
import { EVENT_NAMES, type EventName, type WsServerMessage } from '../../../shared/contract';

const eventNames = new Set<string>(EVENT_NAMES);

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
    if (m.ok === false)
      return {
        kind: 'result',
        id: m.id,
        ok: false,
        error: typeof m.error === 'string' ? m.error : 'The server reported an error.',
      };
  }
  return null;
}
