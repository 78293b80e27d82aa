/**
 * Retry under the conversation's last answer when it failed or was stopped (the server runs only
 * that turn again). When the provider asked to wait (a rate limit's retry-after), it says how
 * long, counting down, and still lets the person press Retry: they may know better.
 */
import { useEffect, useState, type JSX } from 'react';
import type { ChatMessage } from '../../../../shared/contract';
import { Button } from '../../components/Button';
import { canRetry, retryable } from '../../stores/chat/activity';
import { retryTurn } from '../../stores/chat/model-actions';
import { hasRunningTurn } from '../../stores/chat/running';
import { useChat } from '../../stores/chat/state';
import { waitText } from './answer-text';

/** Seconds left to wait, counting down once a second; 0 when the wait is over or there is none. */
function useSecondsLeft(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null || until <= Date.now()) return;
    const t = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= until) clearInterval(t);
    }, 250);
    return () => clearInterval(t);
  }, [until]);
  return until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

export function RetryBar({ m }: { m: ChatMessage }): JSX.Element | null {
  const conversationId = useChat((s) => s.activeId);
  const offered = useChat((s) => {
    if (!canRetry(m) || !s.activeId || hasRunningTurn(s.running, s.activeId)) return false;
    return retryable(s.convs[s.activeId]?.ids ?? [], s.messages) === m.id;
  });
  const afterMs = m.retry?.afterMs;
  const secondsLeft = useSecondsLeft(offered && afterMs ? m.createdAt + afterMs : null);
  const [busy, setBusy] = useState(false);
  if (!offered || !conversationId) return null;
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2" data-retry>
      <Button
        size="sm"
        icon="restart"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void retryTurn(conversationId).finally(() => setBusy(false));
        }}
      >
        Retry
      </Button>
      {afterMs !== undefined && (
        <span className="inline-flex items-center gap-1 text-xs text-fg-muted" data-retry-wait>
          {waitText(afterMs, secondsLeft)}
        </span>
      )}
    </div>
  );
}
