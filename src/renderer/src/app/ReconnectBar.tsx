/** A slim bar while the link to Plugboard is down; everything else stays where it was. */
import { useEffect, useState, type JSX } from 'react';
import { useConnection } from '../stores/connection';

export function ReconnectBar(): JSX.Element | null {
  const state = useConnection((s) => s.state);
  const everOpen = useConnection((s) => s.everOpen);
  const retry = useConnection((s) => s.retry);
  const [now, setNow] = useState(Date.now());
  const down = state.status === 'reconnecting';
  useEffect(() => {
    if (!down) return;
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [down]);
  if (!down) return null;
  const secs = Math.max(0, Math.ceil((state.retryAt - now) / 1000));
  return (
    <div aria-live="polite" className="relative flex h-7 shrink-0 items-center justify-center gap-2 overflow-hidden border-b border-warn/30 bg-warn-soft text-xs text-fg">
      <span className="pb-indeterminate absolute top-0 left-0 h-px w-1/3 bg-warn" aria-hidden="true" />
      <span className="font-medium">Reconnecting…</span>
      <span className="text-fg-muted">
        {everOpen ? 'The connection to Plugboard was lost' : 'Cannot reach Plugboard'}
        {secs > 0 ? ` · next try in ${secs} s` : ''}
      </span>
      <button type="button" onClick={retry} className="rounded px-1.5 font-medium text-accent hover:underline">
        Retry now
      </button>
    </div>
  );
}
