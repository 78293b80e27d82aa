/**
 * Collects items and hands them over once per animation frame, so a flood of events costs one
 * state update per frame instead of one per event. While the page is hidden, animation frames
 * stop; a fallback timer then flushes, so the queue cannot grow without bound.
 */
export interface FrameBatcher<T> {
  push(item: T): void;
  /** Hands over what is queued now (before an event that must see every earlier one). */
  flushNow(): void;
}

const HIDDEN_FLUSH_MS = 250;

export function createFrameBatcher<T>(flush: (items: T[]) => void): FrameBatcher<T> {
  let items: T[] = [];
  let raf: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const run = (): void => {
    if (raf !== null) cancelAnimationFrame(raf);
    if (timer !== null) clearTimeout(timer);
    raf = null;
    timer = null;
    if (items.length === 0) return;
    const batch = items;
    items = [];
    flush(batch);
  };

  return {
    push(item) {
      items.push(item);
      if (raf !== null) return;
      raf = requestAnimationFrame(run);
      timer = setTimeout(run, HIDDEN_FLUSH_MS);
    },
    flushNow: run,
  };
}
