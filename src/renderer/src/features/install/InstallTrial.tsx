/**
 * What the install preview found when it tried the plugin (launch and handshake, as
 * `plugboard check` does), and the command it ran: shown before the person confirms, so a plugin
 * that cannot start here is known before it is installed, not at its first call.
 */
import type { JSX } from 'react';
import type { InstallTrialView } from '../../../../shared/contract';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

export function InstallTrial({
  trial,
  command,
  onTryAgain,
  trying = false,
}: {
  trial: InstallTrialView;
  command: string[];
  /** Tries it again with the settings and choices of the preview (install-trial.ts). */
  onTryAgain?: () => void;
  trying?: boolean;
}): JSX.Element {
  let body: JSX.Element;
  if (trial.status === 'ok') {
    body = (
      <p className="flex items-start gap-1.5 text-fg">
        <Icon name="check" size={14} className="mt-0.5 shrink-0 text-ok" />
        <span>
          Started and answered its handshake in <span className="tabular-nums">{trial.handshakeMs} ms</span>, offering{' '}
          {plural(trial.tools, 'tool')}
          {trial.server ? <span className="text-fg-muted"> ({trial.server})</span> : null}. It was stopped again.
        </span>
      </p>
    );
  } else if (trial.status === 'skipped') {
    body = (
      <p className="flex items-start gap-1.5 text-fg">
        <Icon name="settings" size={14} className="mt-0.5 shrink-0 text-warn" />
        <span>{trial.message}</span>
      </p>
    );
  } else {
    body = (
      <div className="text-fg">
        <p className="flex items-start gap-1.5">
          <Icon name="alert" size={14} className="mt-0.5 shrink-0 text-bad" />
          <span className="min-w-0 break-words">
            <code className="font-mono text-xs text-bad">{trial.code}</code> {trial.message}
          </span>
        </p>
        {trial.stderrTail.length > 0 && (
          <pre
            className="mt-1.5 max-h-28 overflow-auto rounded bg-subtle px-2 py-1 font-mono text-[11px] whitespace-pre-wrap text-fg-muted"
            aria-label="The plugin's last error output"
          >
            {trial.stderrTail.join('\n')}
          </pre>
        )}
        <p className="mt-1 text-[11px] text-fg-subtle">
          You can still install it, and fix this afterwards (its settings, permissions or what it needs on this
          computer).
        </p>
      </div>
    );
  }
  return (
    <div className="space-y-2 text-xs" data-install-trial={trial.status}>
      <div>
        <p className="mb-0.5 text-fg-subtle">Runs</p>
        <code className="block rounded bg-subtle px-2 py-1 font-mono text-[11px] break-all text-fg">
          {command.join(' ')}
        </code>
      </div>
      <div role="status" aria-busy={trying}>
        {trying ? (
          <p className="flex items-center gap-1.5 text-fg-muted">
            <Spinner size={13} /> Trying it with your settings and choices…
          </p>
        ) : (
          body
        )}
      </div>
      {onTryAgain && !trying && (
        <div className="flex flex-wrap items-center gap-2">
          <Button size="sm" variant="secondary" icon="restart" onClick={onTryAgain}>
            Try again
          </Button>
          <span className="text-[11px] text-fg-subtle">
            with the settings below and the capabilities and folders you chose
          </span>
        </div>
      )}
    </div>
  );
}
