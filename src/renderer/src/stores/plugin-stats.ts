/**
 * Process statistics (pid, CPU, memory), polled every 2 s while the plugin panel is visible and
 * the window is shown: nobody reads them otherwise, and each poll samples every process.
 */
import { create } from 'zustand';
import type { ProcessStats } from '../../../shared/contract';
import { getApi } from '../api';

const POLL_MS = 2000;

interface StatsState {
  stats: Record<string, ProcessStats>;
}

export const useStats = create<StatsState>()(() => ({ stats: {} }));

let watchers = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
let inFlight = false;

async function poll(): Promise<void> {
  timer = null;
  if (watchers === 0) return;
  if (!document.hidden && !inFlight) {
    inFlight = true;
    try {
      useStats.setState({ stats: await getApi().invoke('plugins.stats', {}) });
    } catch {
      // Stats are decoration: a failed poll leaves the last values and tries again.
    } finally {
      inFlight = false;
    }
  }
  if (watchers > 0 && timer === null) timer = setTimeout(() => void poll(), POLL_MS);
}

function onVisibility(): void {
  if (!document.hidden && watchers > 0) {
    if (timer !== null) clearTimeout(timer);
    void poll();
  }
}

/** Polls while at least one watcher (the open panel) holds the returned release function. */
export function watchStats(): () => void {
  watchers++;
  if (watchers === 1) {
    document.addEventListener('visibilitychange', onVisibility);
    void poll();
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    watchers--;
    if (watchers === 0) {
      document.removeEventListener('visibilitychange', onVisibility);
      if (timer !== null) clearTimeout(timer);
      timer = null;
    }
  };
}
