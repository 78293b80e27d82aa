/**
 * The web UI opened without its token, or left with one the server no longer knows (it was
 * restarted: each start makes a new token): explain how to get in rather than failing silently.
 */
import type { JSX } from 'react';

const code = 'rounded bg-muted px-1 font-mono text-xs';

export function NoToken({ restarted = false }: { restarted?: boolean }): JSX.Element {
  if (restarted)
    return (
      <main className="flex h-full items-center justify-center bg-subtle p-6">
        <div className="w-full max-w-md rounded-xl border border-line bg-bg p-6 shadow-pop" role="alert">
          <h1 className="text-[15px] font-semibold">Plugboard was restarted</h1>
          <p className="mt-2 text-[13px] text-fg-muted">
            This tab was connected to a <code className={code}>plugboard serve</code> that has stopped; the one running
            now does not know this tab&apos;s token. Open the address it printed when it started (it ends in{' '}
            <code className={code}>?token=…</code>), in this tab or a new one. Your conversations are there.
          </p>
        </div>
      </main>
    );
  return (
    <main className="flex h-full items-center justify-center bg-subtle p-6">
      <div className="w-full max-w-md rounded-xl border border-line bg-bg p-6 shadow-pop">
        <h1 className="text-[15px] font-semibold">Open Plugboard from its link</h1>
        <p className="mt-2 text-[13px] text-fg-muted">
          This page needs the access token that{' '}
          <code className="rounded bg-muted px-1 font-mono text-xs">plugboard serve</code> prints with its URL. Open
          that URL (it ends in <code className="rounded bg-muted px-1 font-mono text-xs">?token=…</code>) in this tab.
        </p>
        <p className="mt-2 text-xs text-fg-subtle">
          The token is kept for this tab only and removed from the address bar once the page has loaded.
        </p>
      </div>
    </main>
  );
}
