/**
 * A read-only performance probe for the end-to-end tests, the only global the UI defines:
 *
 *   window.__plugboardPerf = {
 *     longestFrameMs,  // the longest gap between two animation frames while any turn was streaming
 *     chunksApplied,   // stream chunks (`chat.turn` {type:'stream'}) applied to the UI state so far
 *     reset(),         // zeroes both, e.g. right before a test starts a big stream
 *   }
 *
 * Frames are timed with requestAnimationFrame deltas, only while at least one plugin message is
 * streaming (from its `start` to its `end` event), so idle or background time does not count.
 * A test can stream N chunks, wait for the message to end, and check that `chunksApplied === N`
 * and that `longestFrameMs` stayed small: the UI kept painting while the chunks arrived.
 */

export interface PerfProbe {
  readonly longestFrameMs: number;
  readonly chunksApplied: number;
  reset(): void;
}

let longestFrameMs = 0;
let chunksApplied = 0;
let streaming = false;
let lastFrame: number | null = null;
let rafId: number | null = null;

function frame(now: number): void {
  if (lastFrame !== null) longestFrameMs = Math.max(longestFrameMs, now - lastFrame);
  lastFrame = now;
  rafId = streaming ? requestAnimationFrame(frame) : null;
}

/** Called by the chat store when the number of streaming messages goes from 0 to more, or back. */
export function setStreaming(active: boolean): void {
  if (active === streaming) return;
  streaming = active;
  if (active && rafId === null) {
    lastFrame = null;
    rafId = requestAnimationFrame(frame);
  } else if (!active && rafId !== null) {
    cancelAnimationFrame(rafId);
    rafId = null;
    lastFrame = null;
  }
}

export function noteChunksApplied(n: number): void {
  chunksApplied += n;
}

export function installPerfProbe(): void {
  const probe: PerfProbe = {
    get longestFrameMs() {
      return longestFrameMs;
    },
    get chunksApplied() {
      return chunksApplied;
    },
    reset() {
      longestFrameMs = 0;
      chunksApplied = 0;
      lastFrame = null;
    },
  };
  Object.defineProperty(window, '__plugboardPerf', { value: Object.freeze(probe), writable: false, configurable: false, enumerable: false });
}
