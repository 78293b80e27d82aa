/**
 * The window's polite live region. Each announcement is a new node (keyed by its number), so the
 * same words said twice are read twice; the region itself is always in the page, as screen
 * readers only watch regions that existed before the change.
 */
import type { JSX } from 'react';
import { useAnnouncer } from '../stores/announcer';

export function LiveAnnouncer(): JSX.Element {
  const text = useAnnouncer((s) => s.text);
  const seq = useAnnouncer((s) => s.seq);
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-live-announcer>
      {text && <p key={seq}>{text}</p>}
    </div>
  );
}
