/**
 * A bar while conversations cannot be saved (a full disk): what failed, and that nothing is lost
 * yet, since the changes wait in memory and are retried. It goes once they are all on disk.
 */
import type { JSX } from 'react';
import { useSaveState } from '../stores/save-state';

export function SaveStateBar(): JSX.Element | null {
  const failure = useSaveState((s) => s.failure);
  const unsaved = useSaveState((s) => s.unsaved);
  if (!failure) return null;
  return (
    <div
      role="alert"
      className="flex shrink-0 items-start gap-2 border-b border-bad/30 bg-bad-soft px-3 py-1.5 text-xs text-fg"
    >
      <span className="font-medium">Conversations are not being saved.</span>
      <span className="min-w-0 flex-1 text-fg-muted">
        {failure.message}
        {unsaved > 0 && ` (${unsaved} waiting)`}
      </span>
    </div>
  );
}
