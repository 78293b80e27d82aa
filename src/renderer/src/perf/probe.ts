/**
 * A read-only performance probe for the end-to-end tests, the only global the UI defines:
 *
 *   window.__plugboardPerf = {
 *     longestFrameMs,  // the longest gap between two animation frames while any turn was running
 *     chunksApplied,   // stream events (`chat.turn` {type:'stream'}) applied to a message held here
 *     charsApplied,    // the characters those events appended (before the text cap trims any)
 *     reset(),         // zeroes all three, e.g. right before a test starts a big stream
 *   }
 *
 * Frames are timed with requestAnimationFrame deltas, only while at least one turn runs (between
 * its `turn` frames), so idle or background time does not count.
 * Events for a message the page does not hold are dropped and not counted. The server may join
 * a plugin's chunks into fewer events, so a test that streams N chunks checks `charsApplied`
 * against the characters it streamed: every chunk applied exactly once, none lost or doubled.
 * `longestFrameMs` is a figure to print, not to assert on: speed belongs to the benchmarks.
 */

export interface PerfProbe {
  readonly longestFrameMs: number;
  readonly chunksApplied: number;
  readonly charsApplied: number;
  reset(): void;
}

let longestFrameMs = 0;
let chunksApplied = 0;
let charsApplied = 0;
let streaming = false;
let lastFrame: number | null = null;
let rafId: number | null = null;

function frame(now: number): void {
  if (lastFrame !== null) longestFrameMs = Math.max(longestFrameMs, now - lastFrame);
  lastFrame = now;
  rafId = streaming ? requestAnimationFrame(frame) : null;
}

/** Called with whether any turn runs, each time the chat store's running index changes. */
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

/** Called by the stream buffer with what one flush appended to messages. */
export function noteChunksApplied(chunks: number, chars: number): void {
  chunksApplied += chunks;
  charsApplied += chars;
}

export function installPerfProbe(): void {
  const probe: PerfProbe = {
    get longestFrameMs() {
      return longestFrameMs;
    },
    get chunksApplied() {
      return chunksApplied;
    },
    get charsApplied() {
      return charsApplied;
    },
    reset() {
      longestFrameMs = 0;
      chunksApplied = 0;
      charsApplied = 0;
      lastFrame = null;
    },
  };
  Object.defineProperty(window, '__plugboardPerf', {
    value: Object.freeze(probe),
    writable: false,
    configurable: false,
    enumerable: false,
  });
}
