/**
 * Short notices, announced politely to screen readers. They show at the top, under the header and
 * centred: at the bottom they covered the composer's Send button (the "Installed" toast, at any
 * window size), and on the right the plugin panel's own header.
 */
import type { JSX } from 'react';
import { IconButton } from '../components/Button';
import { Icon } from '../components/Icon';
import { dismissToast, useToasts } from '../stores/toasts';

export function Toasts(): JSX.Element {
  const toasts = useToasts((s) => s.toasts);
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed top-12 left-1/2 z-40 flex w-[360px] max-w-[calc(100vw-32px)] -translate-x-1/2 flex-col gap-2"
    >
      {toasts.map((t) => (
        <div
          key={t.id}
          className="pb-pop pointer-events-auto flex items-start gap-2 rounded-lg border border-line bg-bg px-3 py-2 text-xs shadow-pop"
        >
          <Icon
            name={t.kind === 'error' ? 'alert' : 'check'}
            size={14}
            className={`mt-px shrink-0 ${t.kind === 'error' ? 'text-bad' : 'text-ok'}`}
          />
          <p className="min-w-0 flex-1 break-words text-fg">{t.text}</p>
          <IconButton icon="x" size="sm" label="Dismiss" className="-mt-0.5 -mr-1" onClick={() => dismissToast(t.id)} />
        </div>
      ))}
    </div>
  );
}
