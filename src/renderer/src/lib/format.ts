/** Small formatters for numbers a person reads at a glance. */

export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '—';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

export function formatPercent(n: number): string {
  if (!Number.isFinite(n)) return '—';
  return `${n >= 10 ? Math.round(n) : n.toFixed(1)}%`;
}

export function formatMs(n: number | null): string {
  if (n === null || !Number.isFinite(n)) return '—';
  return n < 10 ? `${n.toFixed(1)} ms` : `${Math.round(n)} ms`;
}

// Formatters are built once: constructing Intl formats per call is slow, and a streaming
// message's header re-renders every frame.
const clock = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const weekday = new Intl.DateTimeFormat(undefined, { weekday: 'short' });
const dayMonth = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

/** 24-hour time with seconds, for log lines (fixed width). */
export function formatClock(at: number): string {
  return clock.format(at);
}

export function formatTime(at: number): string {
  return time.format(at);
}

/** "just now", "5 min", "3 h", "Mon", "12 Mar" — compact, as in sidebars of mail and chat apps. */
export function formatRelative(at: number, now: number = Date.now()): string {
  const s = Math.max(0, (now - at) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86_400) return `${Math.round(s / 3600)} h`;
  if (s < 6 * 86_400) return weekday.format(at);
  return dayMonth.format(at);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
