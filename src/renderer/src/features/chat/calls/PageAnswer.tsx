/**
 * The answer to an MCP server's URL-mode question (elicitation) on its question card: the page it
 * wants opened, its domain first, and nothing opened until the person says Open (then the page
 * opens in their browser: here, in their click, in the web UI; by the app in the desktop app).
 * Decline tells the server the person said no.
 */
import type { JSX } from 'react';
import { Button } from '../../../components/Button';
import { useAppInfo } from '../../../stores/app-info';

export function PageAnswer({
  page,
  busy,
  open,
  decline,
}: {
  page: { url: string; domain: string };
  busy: boolean;
  open: () => void;
  decline: () => void;
}): JSX.Element {
  const inBrowser = useAppInfo((s) => s.info?.transport !== 'ipc');
  return (
    <div className="space-y-2">
      <p className="text-[13px] text-fg-muted">
        It wants to open a page on <span className="font-semibold text-fg">{page.domain}</span>
      </p>
      <p className="break-all font-mono text-[11.5px] text-fg-subtle" aria-label="The page's address">
        {page.url}
      </p>
      <div className="flex gap-1.5">
        <Button
          variant="primary"
          disabled={busy}
          aria-label={`Open the page on ${page.domain}`}
          onClick={() => {
            if (inBrowser) window.open(page.url, '_blank', 'noopener,noreferrer');
            open();
          }}
        >
          {`Open ${page.domain}`}
        </Button>
        <Button disabled={busy} onClick={decline}>
          Decline
        </Button>
      </div>
    </div>
  );
}
