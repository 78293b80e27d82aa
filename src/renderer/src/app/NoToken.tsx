/** The web UI opened without its token: explain how to get in rather than failing silently. */
import type { JSX } from 'react';

export function NoToken(): JSX.Element {
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
