/** The "?" help: every keyboard shortcut, and what this build is. */
import type { JSX } from 'react';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { Kbd } from '../components/Kbd';
import { modLabel } from '../lib/platform';
import { useAppInfo } from '../stores/app-info';
import { setHelpOpen, useUi } from '../stores/ui';
import { SHORTCUTS } from './shortcuts';

export function HelpDialog(): JSX.Element | null {
  const open = useUi((s) => s.helpOpen);
  const info = useAppInfo((s) => s.info);
  if (!open) return null;
  const close = (): void => setHelpOpen(false);
  return (
    <Dialog title="Keyboard shortcuts" onClose={close} width="w-[460px]" footer={
        <Button data-autofocus onClick={close}>
          Close
        </Button>
      }>
      <table className="w-full text-[13px]">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.label} className="border-b border-line last:border-0">
              <td className="py-1.5 pr-4 text-fg-muted">{s.label}</td>
              <td className="py-1.5 text-right whitespace-nowrap">
                <span className="inline-flex gap-1">
                  {s.keys.map((k) => (
                    <Kbd key={k}>{k === 'Mod' ? modLabel() : k}</Kbd>
                  ))}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {info && (
        <p className="mt-3 text-[11px] text-fg-subtle">
          Plugboard {info.version} · {info.platform} · {info.transport === 'ipc' ? 'desktop app' : 'web UI'} · data in <span className="font-mono">{info.dataDir}</span>
        </p>
      )}
    </Dialog>
  );
}
