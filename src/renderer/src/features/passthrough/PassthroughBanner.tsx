/**
 * Shown above the composer while a plugin holds a passthrough session: what is typed goes to
 * that plugin, not to the assistant, until it or the user ends the session.
 */
import type { JSX } from 'react';
import { Button } from '../../components/Button';
import { exitPassthrough } from '../../stores/chat/actions';
import type { Passthrough } from '../../stores/chat/state';

export function PassthroughBanner({ passthrough }: { passthrough: Passthrough }): JSX.Element {
  return (
    <div className="mb-2 flex items-center gap-2 rounded-md border border-accent/30 bg-accent-soft px-2.5 py-1.5 text-xs">
      <span className="h-1.5 w-1.5 shrink-0 rounded-full bg-accent" aria-hidden="true" />
      <p className="min-w-0 flex-1 text-fg">
        Talking to <strong className="font-semibold">{passthrough.pluginName}</strong>
        <span className="text-fg-muted">
          {' '}
          — what you type, / too, goes straight to it, and is never written to disk.
        </span>
      </p>
      <Button size="sm" onClick={() => void exitPassthrough()}>
        Exit passthrough
      </Button>
    </div>
  );
}
