/**
 * The last row while a turn runs and nothing of it streams: the model is reading the
 * conversation, or deciding after its tool calls. It fades in after a moment, so a plugin call
 * (whose message follows its turn's start at once) never flashes it.
 */
import type { JSX } from 'react';
import { Icon } from '../../components/Icon';

export function ThinkingRow(): JSX.Element {
  return (
    <div className="pb-fade-in flex items-center gap-2 text-[13px] text-fg-subtle" role="status" data-thinking>
      <span
        className="grid h-5 w-5 shrink-0 place-items-center rounded-md bg-accent-soft text-accent"
        aria-hidden="true"
      >
        <Icon name="sparkle" size={12} />
      </span>
      <span className="inline-flex items-center gap-1" aria-hidden="true">
        <span className="pb-dot h-1.5 w-1.5 rounded-full bg-fg-subtle" />
        <span className="pb-dot h-1.5 w-1.5 rounded-full bg-fg-subtle [animation-delay:160ms]" />
        <span className="pb-dot h-1.5 w-1.5 rounded-full bg-fg-subtle [animation-delay:320ms]" />
      </span>
      <span>Thinking…</span>
    </div>
  );
}
