/**
 * The frame batcher (stores/frame-batcher.ts): one hand-over per animation frame, and, for
 * streamed output (`inputFirst`), hand-overs held back while the person types, but never for
 * longer than INPUT_FIRST_MAX_WAIT_MS. Frames, the clock and the window's key events are driven
 * by the test: they are the browser's, and what is tested is what the batcher does with them.
 * (A `.dom.test.ts`: type-checked with the page's DOM types, tsconfig.web.json.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

let now = 0;
let frames: Array<() => void> = [];
const win = new EventTarget();

/** Runs the callbacks of one animation frame, `ms` after the last. */
function frame(ms = 16): void {
  now += ms;
  const due = frames;
  frames = [];
  for (const f of due) f();
}

beforeEach(() => {
  now = 1000;
  frames = [];
  vi.useFakeTimers();
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  vi.stubGlobal('window', win);
  vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
  vi.stubGlobal('cancelAnimationFrame', () => {});
  vi.resetModules();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function batcher(inputFirst: boolean) {
  const { createFrameBatcher, INPUT_FIRST_MAX_WAIT_MS } = await import('../../src/renderer/src/stores/frame-batcher');
  const handed: string[][] = [];
  const b = createFrameBatcher<string>((items) => handed.push(items), { inputFirst });
  return { b, handed, maxWait: INPUT_FIRST_MAX_WAIT_MS };
}

describe('the frame batcher', () => {
  it('hands over what came in a frame at that frame, once', async () => {
    const { b, handed } = await batcher(false);
    b.push('a');
    b.push('b');
    expect(handed).toEqual([]);
    frame();
    expect(handed).toEqual([['a', 'b']]);
    frame();
    expect(handed).toHaveLength(1);
  });

  it('while the person types, holds streamed output back, at most the longest wait', async () => {
    const { b, handed, maxWait } = await batcher(true);
    b.push('first');
    frame();
    expect(handed).toEqual([['first']]);
    // A key every 40 ms, output all the while.
    let typed = 0;
    while (typed * 40 < maxWait * 3) {
      win.dispatchEvent(new Event('keydown'));
      b.push(`piece ${typed}`);
      frame(20);
      frame(20);
      typed++;
    }
    // Fewer hand-overs than frames: about one per longest wait, none later than it.
    expect(handed.length - 1).toBeGreaterThanOrEqual(2);
    expect(handed.length - 1).toBeLessThanOrEqual(4);
    // In order, nothing lost: what was handed over is the beginning of what was pushed.
    const pushed = ['first', ...Array.from({ length: typed }, (_, i) => `piece ${i}`)];
    expect(handed.flat()).toEqual(pushed.slice(0, handed.flat().length));
    // Typing stops: the rest goes at the next frame after a quiet spell.
    b.push('last');
    frame(200);
    expect(handed.flat().at(-1)).toBe('last');
    expect(handed.flat()).toHaveLength(typed + 2);
  });

  it('a batcher not made inputFirst hands over every frame while the person types', async () => {
    const { b, handed } = await batcher(false);
    for (let i = 0; i < 5; i++) {
      win.dispatchEvent(new Event('keydown'));
      b.push(String(i));
      frame();
    }
    expect(handed).toHaveLength(5);
  });

  it('flushNow hands over at once, typing or not', async () => {
    const { b, handed } = await batcher(true);
    win.dispatchEvent(new Event('keydown'));
    b.push('x');
    b.flushNow();
    expect(handed).toEqual([['x']]);
  });
});
