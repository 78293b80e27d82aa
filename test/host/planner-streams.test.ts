import { describe, expect, it } from 'vitest';
import { PlannerStreams } from '../../src/main/host/dialects/planner-streams';
import type { RpcId } from '../../src/main/host/rpc/peer';

function harness(active: () => RpcId[]) {
  const chunks: Array<[RpcId, unknown]> = [];
  const broken: Array<[RpcId, string]> = [];
  const notes: string[] = [];
  const streams = new PlannerStreams({
    callFor: (task) => {
      const a = active();
      if ((typeof task === 'number' || typeof task === 'string') && a.includes(task)) return task;
      return a.length === 1 ? a[0] : undefined;
    },
    chunk: (c, d) => chunks.push([c, d]),
    broken: (c, m) => broken.push([c, m]),
    diagnostic: (m) => notes.push(m),
  });
  return { streams, chunks, broken, notes };
}

describe('planner/executor streams', () => {
  it('accepts sequences starting at 0 or 1 and checks the announced total', () => {
    const h = harness(() => [7]);
    h.streams.start({ stream_id: 's', task_id: 7 });
    for (const seq of [0, 1, 2]) h.streams.data({ stream_id: 's', chunk: seq, sequence: seq });
    h.streams.end({ stream_id: 's', total_chunks: 3 });
    expect(h.chunks).toEqual([
      [7, 0],
      [7, 1],
      [7, 2],
    ]);
    expect(h.broken).toEqual([]);
  });

  it('names a chunk that arrives twice or out of order', () => {
    const h = harness(() => [1]);
    h.streams.start({ stream_id: 's', task_id: 1 });
    h.streams.data({ stream_id: 's', chunk: 'a', sequence: 1 });
    h.streams.data({ stream_id: 's', chunk: 'b', sequence: 2 });
    h.streams.data({ stream_id: 's', chunk: 'b', sequence: 2 });
    expect(h.broken).toEqual([[1, 'stream "s": chunk 2 arrived again or out of order (after 2)']]);
  });

  it('does not hand the late chunks of a broken stream to the next call', () => {
    let active: RpcId[] = [1];
    const h = harness(() => active);
    h.streams.start({ stream_id: 'old', task_id: 1 });
    h.streams.data({ stream_id: 'old', chunk: 'a', sequence: 1 });
    h.streams.data({ stream_id: 'old', chunk: 'c', sequence: 3 });
    expect(h.broken).toHaveLength(1);
    active = [2]; // the next call starts before the plugin finishes the old stream
    h.streams.data({ stream_id: 'old', chunk: 'd', sequence: 4 });
    h.streams.end({ stream_id: 'old', total_chunks: 4 });
    expect(h.chunks).toEqual([[1, 'a']]);
    expect(h.broken).toHaveLength(1);
    expect(h.notes).toContain('late stream_data for ended stream "old" ignored');
  });

  it('takes a stream id used again by a later call as a new stream', () => {
    let active: RpcId[] = [1];
    const h = harness(() => active);
    h.streams.start({ stream_id: 'main', task_id: 1 });
    h.streams.data({ stream_id: 'main', chunk: 'first call', sequence: 1 });
    h.streams.end({ stream_id: 'main', total_chunks: 1 });
    active = [2];
    h.streams.start({ stream_id: 'main', task_id: 2 });
    h.streams.data({ stream_id: 'main', chunk: 'second call', sequence: 1 });
    h.streams.end({ stream_id: 'main', total_chunks: 1 });
    expect(h.chunks).toEqual([
      [1, 'first call'],
      [2, 'second call'],
    ]);
    expect(h.broken).toEqual([]);
  });
});
