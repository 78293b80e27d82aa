/**
 * Writes answers: JSON bodies, and SSE streams frame by frame with the scripted delays, stalls,
 * cuts and in-stream errors. Each frame is handed to the socket before the next one is written,
 * so a cut after N chunks really delivers N chunks first. Every wait ends when the client goes
 * away (`closed`), so a stopped client or a closing server never leaves a timer behind.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Frame, JsonAnswer, Plan } from './plan';

export function sendJson(res: ServerResponse, answer: JsonAnswer, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...headers,
    ...answer.headers,
  });
  res.end(body);
}

/** Resolves when `closed` fires: the answer to a request that must never be answered. */
export function untilClosed(closed: AbortSignal): Promise<void> {
  if (closed.aborted) return Promise.resolve();
  return new Promise((resolve) => closed.addEventListener('abort', () => resolve(), { once: true }));
}

async function pause(ms: number, closed: AbortSignal): Promise<void> {
  if (ms <= 0) return;
  try {
    await sleep(ms, undefined, { signal: closed });
  } catch {
    // aborted: the caller checks `closed`
  }
}

function write(res: ServerResponse, data: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(data, () => resolve());
  });
}

type Interruption = { kind: 'cut' | 'stall' | 'error'; after: number };

/** The scripted interruption that comes first, if any. */
function interruption(plan: Plan): Interruption | undefined {
  const all: Interruption[] = [];
  if (plan.cutAfterChunks !== undefined) all.push({ kind: 'cut', after: plan.cutAfterChunks });
  if (plan.stallAfterChunks !== undefined) all.push({ kind: 'stall', after: plan.stallAfterChunks });
  if (plan.errorAfterChunks !== undefined) all.push({ kind: 'error', after: plan.errorAfterChunks });
  return all.sort((a, b) => a.after - b.after)[0];
}

/**
 * The index of the frame before which an interruption after `n` chunks happens: the (n+1)-th
 * chunk frame, or the frame after the last chunk when there are no more (the preamble, such as
 * message_start, always goes out first).
 */
function interruptionIndex(frames: Frame[], n: number): number {
  let count = 0;
  let afterLast = 1;
  for (let i = 0; i < frames.length; i++) {
    if (!frames[i]!.chunk) continue;
    if (count === n) return i;
    count++;
    afterLast = i + 1;
  }
  return afterLast;
}

export interface StreamOptions {
  res: ServerResponse;
  closed: AbortSignal;
  frames: Frame[];
  errorFrame: string;
  plan: Plan;
  headers: Record<string, string>;
  /** Called just before the socket is destroyed on purpose. */
  onCut: () => void;
  /** Called as each chunk frame has been handed to the socket. */
  onChunk?: () => void;
}

export async function sendStream(o: StreamOptions): Promise<void> {
  const { res, closed, frames, plan } = o;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...o.headers,
  });
  res.flushHeaders();
  const stop = interruption(plan);
  const stopAt = stop === undefined ? -1 : interruptionIndex(frames, stop.after);
  let chunks = 0;
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i]!;
    if (frame.chunk && chunks > 0) await pause(plan.chunkDelayMs, closed);
    if (closed.aborted) return;
    if (i === stopAt && stop !== undefined) return interrupt(o, stop);
    await write(res, frame.data);
    if (frame.chunk) {
      chunks++;
      o.onChunk?.();
    }
  }
  res.end();
}

async function interrupt(o: StreamOptions, stop: Interruption): Promise<void> {
  switch (stop.kind) {
    case 'cut':
      o.onCut();
      o.res.socket?.destroy();
      return;
    case 'stall':
      return untilClosed(o.closed);
    case 'error':
      await write(o.res, o.errorFrame);
      o.res.end();
      return;
  }
}

/**
 * A reply to a request that did not ask for a stream: waits as long as the chunks would have
 * taken, then answers whole. A cut drops the connection with no answer; a stall never answers;
 * an in-stream error becomes `failure` (there is no stream to put it in).
 */
export async function sendWhole(
  o: Omit<StreamOptions, 'frames' | 'errorFrame'> & { answer: JsonAnswer; failure: JsonAnswer },
): Promise<void> {
  const stop = interruption(o.plan);
  const chunks = o.plan.textChunks.length + o.plan.toolCalls.reduce((n, c) => n + c.fragments.length, 0);
  await pause(o.plan.chunkDelayMs * Math.max(0, chunks - 1), o.closed);
  if (o.closed.aborted) return;
  if (stop?.kind === 'cut') {
    o.onCut();
    o.res.socket?.destroy();
    return;
  }
  if (stop?.kind === 'stall') return untilClosed(o.closed);
  sendJson(o.res, stop?.kind === 'error' ? o.failure : o.answer, o.headers);
}
