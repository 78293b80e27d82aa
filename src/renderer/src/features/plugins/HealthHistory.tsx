/**
 * The last crashes, watchdog kills, restarts and stops of a plugin, newest first, with their
 * reason and time: what happened to it at a glance, without opening the log (which has them all).
 */
import type { JSX } from 'react';
import type { HealthNote } from '../../../../shared/plugin';
import { formatClock } from '../../lib/format';
import { healthTone } from './health';

export function HealthHistory({ notes }: { notes: HealthNote[] | undefined }): JSX.Element | null {
  if (!notes || notes.length === 0) return null;
  return (
    <section aria-label="Recent health events" className="text-xs">
      <h4 className="mb-0.5 text-[11px] font-semibold tracking-wide text-fg-subtle uppercase">Recent events</h4>
      <ol className="space-y-0.5">
        {[...notes].reverse().map((n) => (
          <li key={`${n.at}-${n.state}`} className="flex gap-2">
            <time
              dateTime={new Date(n.at).toISOString()}
              className="shrink-0 font-mono text-[11px] text-fg-subtle tabular-nums"
            >
              {formatClock(n.at)}
            </time>
            <span className={`shrink-0 font-medium ${healthTone[n.state].text}`}>{n.state}</span>
            <span className="min-w-0 break-words text-fg-muted">{n.reason}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
