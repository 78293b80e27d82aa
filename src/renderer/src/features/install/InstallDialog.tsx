/**
 * The install dialog: the picker (a file or a folder), progress while the package is read and
 * tried, the refusal if it cannot be installed, or the preview with the capabilities to grant (all
 * checked to start with) and Install; for an MCP config file, its servers to choose from.
 *
 * Each step is a dialog of its own (keyed by the step): it takes focus as it opens (its
 * `data-autofocus`, or its first control), and gives it back to what had it before the first
 * one opened (the Install plugin… button, say), so a keyboard is never left on a vanished button.
 */
import type { JSX } from 'react';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { cancelInstall, commitImport, commitInstall, useInstall } from '../../stores/install';
import { usePlugins } from '../../stores/plugins';
import { ImportPreview } from './ImportPreview';
import { InstallPicker } from './InstallPicker';
import { InstallPreview } from './InstallPreview';
import { tryInstallAgain } from '../../stores/install-trial';
import { InstallSettings } from './InstallSettings';
import { InstallProgress } from './InstallProgress';

export function InstallDialog(): JSX.Element | null {
  const phase = useInstall((s) => s.phase);
  if (phase.step === 'idle') return null;
  if (phase.step === 'choose') return <InstallPicker key="choose" />;

  if (phase.step === 'reading') {
    return (
      <Dialog
        key="reading"
        title={`Installing ${phase.name}`}
        onClose={cancelInstall}
        width="w-[440px]"
        closeLabel="Cancel"
        footer={<Button onClick={cancelInstall}>Cancel</Button>}
      >
        <p className="flex items-center gap-2 text-[13px] text-fg-muted">
          <Spinner /> {phase.detail}
        </p>
        <InstallProgress />
      </Dialog>
    );
  }

  if (phase.step === 'refused') {
    return (
      <Dialog
        key="refused"
        title={`Can’t install ${phase.name}`}
        onClose={cancelInstall}
        width="w-[480px]"
        footer={
          <Button data-autofocus onClick={cancelInstall}>
            Close
          </Button>
        }
      >
        <div role="alert" className="flex gap-2 text-[13px] text-fg">
          <Icon name="alert" className="mt-0.5 shrink-0 text-bad" />
          <p className="min-w-0 break-words whitespace-pre-wrap">{phase.message}</p>
        </div>
      </Dialog>
    );
  }

  if (phase.step === 'import') {
    const n = phase.chosen.length;
    return (
      <Dialog
        key="import"
        title={
          phase.preview.appName === 'the MCP registry'
            ? `Install ${phase.preview.file} from the catalog`
            : `Import MCP servers from ${phase.preview.appName}`
        }
        onClose={cancelInstall}
        width="w-[620px]"
        closeLabel="Cancel"
        footer={
          <>
            {phase.committing && <Installing />}
            <Button onClick={cancelInstall}>{phase.results.length > 0 ? 'Close' : 'Cancel'}</Button>
            <Button variant="primary" disabled={phase.committing || n === 0} onClick={() => void commitImport()}>
              {n === 1 ? 'Install 1 server' : `Install ${n} servers`}
            </Button>
          </>
        }
      >
        <ImportPreview
          servers={phase.preview.servers}
          chosen={phase.chosen}
          secret={phase.secret}
          access={phase.access}
          results={phase.results}
          error={phase.error}
        />
        {phase.committing && <InstallProgress />}
      </Dialog>
    );
  }

  return <PreviewDialog />;
}

function PreviewDialog(): JSX.Element | null {
  const phase = useInstall((s) => s.phase);
  const installed = usePlugins((s) => (phase.step === 'preview' ? s.byId[phase.preview.id] : undefined));
  if (phase.step !== 'preview') return null;
  const { preview } = phase;
  // A plugin that failed its trial can still be installed (to fix afterwards), but not by a
  // reflex Enter: Cancel takes the focus, and the button says what it does.
  const failed = preview.trial.status === 'failed';
  // Over a version that works, a failed trial means trading it for one that does not: said first.
  const working =
    installed !== undefined &&
    !installed.error &&
    !['failed', 'crashed', 'unresponsive'].includes(installed.health.state);
  return (
    <Dialog
      key="preview"
      title={preview.replaces ? `Update ${preview.name}` : `Install ${preview.name}`}
      onClose={cancelInstall}
      width="w-[560px]"
      closeLabel="Cancel"
      footer={
        <>
          {phase.committing && <Installing />}
          <Button data-autofocus={failed || undefined} onClick={cancelInstall}>
            Cancel
          </Button>
          <Button
            data-autofocus={!failed || undefined}
            variant={failed ? 'secondary' : 'primary'}
            disabled={phase.committing || phase.trying}
            onClick={() => void commitInstall()}
          >
            {failed ? 'Install anyway' : 'Install'}
          </Button>
        </>
      }
    >
      {failed && preview.replaces && working && (
        <p
          role="alert"
          data-replaces-working
          className="mb-3 flex gap-2 rounded-md border border-warn/40 bg-warn-soft px-3 py-2 text-[13px] text-fg"
        >
          <Icon name="alert" className="mt-0.5 shrink-0 text-warn" />
          <span>
            {preview.name} {preview.replaces.version} is installed and works. This version failed its trial: installing
            it replaces the working one.
          </span>
        </p>
      )}
      <InstallPreview
        preview={preview}
        grants={phase.grants}
        folders={phase.folders}
        error={phase.error}
        onTryAgain={() => void tryInstallAgain()}
        trying={phase.trying ?? false}
      />
      <InstallSettings token={phase.token} preview={preview} />
      {phase.committing && <InstallProgress />}
    </Dialog>
  );
}

function Installing(): JSX.Element {
  return (
    <span className="mr-auto flex items-center gap-2 text-xs text-fg-muted">
      <Spinner /> Installing…
    </span>
  );
}
