/**
 * Collects items and hands them over once per animation frame, so a flood of events costs one
 * state update per frame instead of one per event. While the page is hidden, animation frames
 * stop; a fallback timer then flushes, so the queue cannot grow without bound.
 *
 * A batcher made `inputFirst` (a plugin's streamed output) gives way to the person: while they
 * type, click or scroll, it hands over at most every INPUT_FIRST_MAX_WAIT_MS instead of every
 * frame, so the frames that show what they typed do not also lay out megabytes of output. The
 * output still moves several times a second, and every frame again once they stop.
 */
export interface FrameBatcher<T> {
  push(item: T): void;
  /** Hands over what is queued now (before an event that must see every earlier one). */
  flushNow(): void;
}

const HIDDEN_FLUSH_MS = 250;
/** Input this recent means the person is still typing or scrolling. */
const INPUT_QUIET_MS = 120;
export const INPUT_FIRST_MAX_WAIT_MS = 200;

/** When the person last pressed a key or a button, or turned the wheel (performance.now()). */
let lastInput = -Infinity;
if (typeof window !== 'undefined') {
  for (const type of ['keydown', 'pointerdown', 'wheel'] as const) {
    window.addEventListener(
      type,
      () => {
        lastInput = performance.now();
      },
      { capture: true, passive: true },
    );
  }
}

export function createFrameBatcher<T>(
  flush: (items: T[]) => void,
  { inputFirst = false }: { inputFirst?: boolean } = {},
): FrameBatcher<T> {
  let items: T[] = [];
  let raf: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastFlush = -Infinity;

  const run = (): void => {
    if (raf !== null) cancelAnimationFrame(raf);
    if (timer !== null) clearTimeout(timer);
    raf = null;
    timer = null;
    if (items.length === 0) return;
    lastFlush = performance.now();
    const batch = items;
    items = [];
    flush(batch);
  };

  const onFrame = (): void => {
    raf = null;
    const now = performance.now();
    if (inputFirst && now - lastInput < INPUT_QUIET_MS && now - lastFlush < INPUT_FIRST_MAX_WAIT_MS) {
      raf = requestAnimationFrame(onFrame);
      return;
    }
    run();
  };

  return {
    push(item) {
      items.push(item);
      if (raf !== null || timer !== null) return;
      raf = requestAnimationFrame(onFrame);
      timer = setTimeout(run, HIDDEN_FLUSH_MS);
    },
    flushNow: run,
  };
}
