/**
 * Plugin logs, fetched when someone opens a plugin's log and then kept current from `log`
 * events (batched per frame: a chatty plugin can write thousands of stderr lines a second).
 */
import { create } from 'zustand';
import type { LogEvent } from '../../../shared/plugin';
import { getApi } from '../api';
import { createFrameBatcher } from './frame-batcher';
import { errorText } from './toasts';

/** Enough history to diagnose a failure, bounded so a runaway plugin cannot exhaust memory. */
const MAX_LINES = 5000;

interface LogsState {
  logs: Record<string, LogEvent[] | undefined>;
  errors: Record<string, string | undefined>;
}

function cap(lines: LogEvent[]): LogEvent[] {
  return lines.length > MAX_LINES ? lines.slice(lines.length - MAX_LINES) : lines;
}

export const useLogs = create<LogsState>()(() => ({ logs: {}, errors: {} }));

/** Fetches a plugin's log history; from then on its live lines are kept too. */
export async function loadLogs(id: string): Promise<void> {
  // Live lines that arrive while the history loads are kept after it.
  useLogs.setState((s) => ({ logs: { ...s.logs, [id]: s.logs[id] ?? [] } }));
  try {
    const history = await getApi().invoke('plugins.logs', { id });
    useLogs.setState((s) => {
      const live = s.logs[id] ?? [];
      const last = history.length > 0 ? history[history.length - 1]!.at : -Infinity;
      return {
        logs: { ...s.logs, [id]: cap([...history, ...live.filter((l) => l.at > last)]) },
        errors: { ...s.errors, [id]: undefined },
      };
    });
  } catch (e) {
    useLogs.setState((s) => ({ errors: { ...s.errors, [id]: errorText(e) } }));
  }
}

/** The whole kept log of a plugin, as text (what Copy and Export take). */
export function logText(id: string): string {
  return (useLogs.getState().logs[id] ?? []).map(formatLogLine).join('\n');
}

const batch = createFrameBatcher<LogEvent>((events) => {
  const current = useLogs.getState().logs;
  const added = new Map<string, LogEvent[]>();
  for (const e of events) {
    // Only plugins whose log was opened are kept current; others are fetched when opened.
    if (!current[e.pluginId]) continue;
    const list = added.get(e.pluginId);
    if (list) list.push(e);
    else added.set(e.pluginId, [e]);
  }
  if (added.size === 0) return;
  const logs = { ...current };
  for (const [id, lines] of added) logs[id] = cap((logs[id] ?? []).concat(lines));
  useLogs.setState({ logs });
});

export function applyLog(e: LogEvent): void {
  batch.push(e);
}

function formatLogLine(l: LogEvent): string {
  return `${new Date(l.at).toISOString()} ${l.level.padEnd(5)} ${l.source.padEnd(6)} ${l.message}`;
}
