/**
 * Planner/executor streams: `stream_start {stream_id, task_id}`, `stream_data {stream_id, chunk,
 * sequence}`, `stream_end {stream_id, total_chunks}`. Sequence numbers let the host see a lost or
 * reordered chunk; the first one breaks the call with a message that names the chunk, and the
 * chunks before it stay delivered.
 */
import type { RpcId } from '../rpc/peer';

interface OpenStream {
  call: RpcId;
  /** The sequence number expected next; null until the first chunk (which may be 0 or 1). */
  next: number | null;
  received: number;
  first: number;
}

export interface PlannerStreamHooks {
  callFor(taskId: unknown): RpcId | undefined;
  chunk(call: RpcId, data: unknown): void;
  broken(call: RpcId, message: string): void;
  diagnostic(message: string): void;
}

type StreamKey = string | number;

/** How many ended streams are remembered, so their late chunks are not taken for a new call's. */
const REMEMBER_ENDED = 64;

export class PlannerStreams {
  private readonly open = new Map<StreamKey, OpenStream>();
  private readonly ended = new Set<StreamKey>();

  constructor(private readonly hooks: PlannerStreamHooks) {}

  get openCount(): number {
    return this.open.size;
  }

  start(p: Record<string, unknown>): void {
    const key = streamKey(p.stream_id);
    if (key === undefined) return this.hooks.diagnostic('stream_start without a stream_id ignored');
    const call = this.hooks.callFor(p.task_id);
    if (call === undefined)
      return this.hooks.diagnostic(`stream_start for ${JSON.stringify(p.stream_id)} with no matching call`);
    // A stream id may come back in a later call (a fixed id, or one counted per task).
    this.ended.delete(key);
    this.open.set(key, { call, next: null, received: 0, first: 1 });
  }

  data(p: Record<string, unknown>): void {
    const key = streamKey(p.stream_id);
    if (key !== undefined && this.ended.has(key))
      return this.hooks.diagnostic(`late stream_data for ended stream ${JSON.stringify(key)} ignored`);
    let s = key === undefined ? undefined : this.open.get(key);
    if (!s && key !== undefined) {
      // Tolerate a missing stream_start when the owner is unambiguous.
      const call = this.hooks.callFor(undefined);
      if (call !== undefined) {
        s = { call, next: null, received: 0, first: 1 };
        this.open.set(key, s);
      }
    }
    if (!s || key === undefined)
      return this.hooks.diagnostic(`stream_data for unknown stream ${JSON.stringify(p.stream_id)}`);
    const seq = p.sequence;
    if (typeof seq !== 'number' || !Number.isInteger(seq)) {
      return this.breakStream(key, s, `stream ${JSON.stringify(key)}: stream_data without an integer sequence number`);
    }
    if (s.next === null) {
      if (seq > 1) {
        const missing = seq - 1 === 1 ? 'chunk 1 is' : `chunks 1 to ${seq - 1} are`;
        return this.breakStream(
          key,
          s,
          `stream ${JSON.stringify(key)}: ${missing} missing (the first chunk to arrive was ${seq})`,
        );
      }
      s.first = seq;
      s.next = seq;
    }
    if (seq > s.next) {
      const missing = seq - s.next === 1 ? `chunk ${s.next} is` : `chunks ${s.next} to ${seq - 1} are`;
      return this.breakStream(
        key,
        s,
        `stream ${JSON.stringify(key)}: ${missing} missing (chunk ${seq} arrived after ${s.next - 1})`,
      );
    }
    if (seq < s.next) {
      return this.breakStream(
        key,
        s,
        `stream ${JSON.stringify(key)}: chunk ${seq} arrived again or out of order (after ${s.next - 1})`,
      );
    }
    s.next++;
    s.received++;
    this.hooks.chunk(s.call, p.chunk);
  }

  end(p: Record<string, unknown>): void {
    const key = streamKey(p.stream_id);
    if (key !== undefined && this.ended.has(key)) return;
    const s = key === undefined ? undefined : this.open.get(key);
    if (!s || key === undefined)
      return this.hooks.diagnostic(`stream_end for unknown stream ${JSON.stringify(p.stream_id)}`);
    this.close(key);
    const total = p.total_chunks;
    if (typeof total !== 'number') return;
    if (total > s.received) {
      const firstMissing = s.first + s.received;
      const lastMissing = s.first + total - 1;
      const which =
        firstMissing === lastMissing ? `chunk ${firstMissing} is` : `chunks ${firstMissing} to ${lastMissing} are`;
      this.hooks.broken(
        s.call,
        `stream ${JSON.stringify(key)}: stream_end announced ${total} chunks but ${s.received} arrived; ${which} missing`,
      );
    } else if (total < s.received) {
      this.hooks.broken(
        s.call,
        `stream ${JSON.stringify(key)}: stream_end announced ${total} chunks but ${s.received} arrived`,
      );
    }
  }

  /** At the final response: a stream left open without its end is only worth a note. */
  noteUnended(call: RpcId): void {
    for (const [key, s] of this.open) {
      if (s.call === call) this.hooks.diagnostic(`stream ${JSON.stringify(key)} had no stream_end before the response`);
    }
  }

  closeFor(call: RpcId): void {
    for (const [key, s] of this.open) if (s.call === call) this.close(key);
  }

  private close(key: StreamKey): void {
    this.open.delete(key);
    this.ended.add(key);
    if (this.ended.size > REMEMBER_ENDED) this.ended.delete(this.ended.values().next().value as StreamKey);
  }

  private breakStream(key: StreamKey, s: OpenStream, message: string): void {
    this.close(key);
    this.hooks.broken(s.call, message);
  }
}

function streamKey(raw: unknown): StreamKey | undefined {
  return typeof raw === 'string' || typeof raw === 'number' ? raw : undefined;
}
