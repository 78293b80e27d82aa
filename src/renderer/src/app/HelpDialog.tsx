/** The "?" help: every keyboard shortcut, and what this build is. */
import type { JSX } from 'react';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { useAppInfo } from '../stores/app-info';
import { setHelpOpen, useUi } from '../stores/ui';
import { ShortcutTable } from './ShortcutTable';

export function HelpDialog(): JSX.Element | null {
  const open = useUi((s) => s.helpOpen);
  const info = useAppInfo((s) => s.info);
  if (!open) return null;
  const close = (): void => setHelpOpen(false);
  return (
    <Dialog
      title="Keyboard shortcuts"
      onClose={close}
      width="w-[460px]"
      footer={
        <Button data-autofocus onClick={close}>
          Close
        </Button>
      }
    >
      <ShortcutTable />
      {info && (
        <p className="mt-3 text-[11px] text-fg-subtle">
          Plugboard {info.version} · {info.platform} · {info.transport === 'ipc' ? 'desktop app' : 'web UI'} · data in{' '}
          <span className="font-mono">{info.dataDir}</span>
        </p>
      )}
    </Dialog>
  );
}
