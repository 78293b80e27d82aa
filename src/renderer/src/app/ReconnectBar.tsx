/**
 * A slim bar while the link to Plugboard is down; everything else stays where it was. Screen
 * readers hear the changes of state only (lost, back): the live region is always there and its
 * text changes only then, while the countdown to the next try is for the eyes alone.
 */
import { useEffect, useState, type JSX } from 'react';
import { retryConnection, useConnection } from '../stores/connection';

const GONE_AFTER_ATTEMPTS = 4;

export function ReconnectBar(): JSX.Element {
  const state = useConnection((s) => s.state);
  const everOpen = useConnection((s) => s.everOpen);
  const [now, setNow] = useState(Date.now());
  const [wasDown, setWasDown] = useState(false);
  const down = state.status === 'reconnecting';
  useEffect(() => {
    if (!down) return;
    setWasDown(true);
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [down]);
  const reason = everOpen ? 'The connection to Plugboard was lost' : 'Cannot reach Plugboard';
  // A few tries in, say what most likely happened: `plugboard serve` stopped, or was started
  // again elsewhere (another port, a new token), which this tab cannot follow by itself.
  const gone = state.status === 'reconnecting' && everOpen && state.attempt >= GONE_AFTER_ATTEMPTS;
  const announcement = gone
    ? 'Plugboard is not answering. If you restarted plugboard serve, open the new address it printed.'
    : down
      ? `${reason}. Reconnecting…`
      : wasDown && state.status === 'open'
        ? 'Connected to Plugboard again.'
        : '';
  const secs = down ? Math.max(0, Math.ceil((state.retryAt - now) / 1000)) : 0;
  return (
    <>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {down && (
        <div className="relative flex min-h-7 shrink-0 flex-wrap items-center justify-center gap-x-2 overflow-hidden border-b border-warn/30 bg-warn-soft px-2 py-1 text-center text-xs text-fg">
          <span className="pb-indeterminate absolute top-0 left-0 h-px w-1/3 bg-warn" aria-hidden="true" />
          <span className="font-medium">Reconnecting…</span>
          <span className="min-w-0 text-fg-muted" data-reconnect-reason>
            {gone ? (
              <>
                Plugboard is not answering at {window.location.host}. If you restarted{' '}
                <code className="font-mono">plugboard serve</code>, open the new address it printed.
              </>
            ) : (
              reason
            )}
            {secs > 0 && <span aria-hidden="true">{` · next try in ${secs} s`}</span>}
          </span>
          <button
            type="button"
            onClick={() => retryConnection()}
            className="rounded px-1.5 font-medium text-accent hover:underline"
          >
            Retry now
          </button>
        </div>
      )}
    </>
  );
}
