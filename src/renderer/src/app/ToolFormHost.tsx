/** A tool's form opened from outside the composer (a suggestion on the "Connect a model" card). */
import type { JSX } from 'react';
import { ToolFormDialog } from '../features/chat/ToolFormDialog';
import { focusComposer, openToolForm, useUi } from '../stores/ui';

export function ToolFormHost(): JSX.Element | null {
  const entry = useUi((s) => s.toolForm);
  if (!entry) return null;
  const close = (): void => {
    openToolForm(null);
    focusComposer();
  };
  return <ToolFormDialog key={`${entry.plugin}:${entry.name}`} entry={entry} onClose={close} onDone={close} />;
}
