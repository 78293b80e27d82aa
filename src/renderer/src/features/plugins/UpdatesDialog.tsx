/**
 * Check for updates: every installed plugin with the version its origin offers (nothing changes
 * by asking), and for one with another version, Review: the new version staged and tried, the
 * command it runs, what changes in its tools (ToolChanges), what it requests that is not granted;
 * Update installs it, keeping the installed version for Roll back in the plugin's detail.
 */
import type { JSX, ReactNode } from 'react';
import type { UpdateCheckView } from '../../../../shared/updates';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { closeUpdates, commitUpdate, leaveReview, reviewUpdate, useUpdates } from '../../stores/updates';
import { InstallTrial } from '../install/InstallTrial';
import { PackageInfo } from '../install/PackageInfo';
import { ToolChanges } from '../install/ToolChanges';

function Row({ u }: { u: UpdateCheckView }): JSX.Element {
  const staging = useUpdates((s) => s.staging);
  return (
    <li className="flex items-start gap-2 border-b border-line py-2 last:border-b-0" data-update={u.id}>
      <Icon
        name={u.status === 'available' ? 'arrowUp' : u.status === 'current' ? 'check' : 'alert'}
        size={14}
        className={`mt-0.5 shrink-0 ${u.status === 'available' ? 'text-accent' : u.status === 'current' ? 'text-ok' : 'text-fg-subtle'}`}
      />
      <div className="min-w-0 flex-1 text-xs">
        <p>
          <span className="font-medium text-fg">{u.name}</span>{' '}
          <span className="tabular-nums text-fg-muted">
            {u.status === 'available' ? `${u.current} → ${u.latest}` : u.current}
          </span>
          {u.status === 'current' && <span className="text-fg-subtle"> · up to date</span>}
        </p>
        {u.from && <p className="truncate text-[11px] text-fg-subtle">from {u.from}</p>}
        {u.message && <p className="text-[11px] text-fg-muted">{u.message}</p>}
      </div>
      {u.status === 'available' && (
        <Button
          size="sm"
          aria-label={`Review the update of ${u.name}`}
          disabled={staging !== null}
          onClick={() => void reviewUpdate(u.id)}
        >
          {staging === u.id && <Spinner />}
          Review…
        </Button>
      )}
    </li>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }): JSX.Element {
  return (
    <section className="mt-3">
      <h3 className="mb-1 text-[11px] font-semibold tracking-wide text-fg-subtle uppercase">{title}</h3>
      {children}
    </section>
  );
}

export function UpdatesDialog(): JSX.Element | null {
  const open = useUpdates((s) => s.open);
  const checking = useUpdates((s) => s.checking);
  const results = useUpdates((s) => s.results);
  const error = useUpdates((s) => s.error);
  const review = useUpdates((s) => s.review);
  if (!open) return null;
  if (review) {
    const p = review.preview;
    return (
      <Dialog
        key="review"
        title={`Update ${p.name} to ${p.to}`}
        onClose={leaveReview}
        width="w-[600px]"
        closeLabel="Back"
        footer={
          <>
            {review.committing && (
              <span className="mr-auto flex items-center gap-2 text-xs text-fg-muted">
                <Spinner /> Updating…
              </span>
            )}
            <Button onClick={leaveReview}>Back</Button>
            <Button data-autofocus variant="primary" disabled={review.committing} onClick={() => void commitUpdate()}>
              Update
            </Button>
          </>
        }
      >
        <div className="text-[13px]">
          {review.error && (
            <div role="alert" className="mb-2 flex gap-2 rounded-md border border-bad/30 bg-bad-soft px-3 py-2 text-xs">
              <Icon name="alert" size={14} className="mt-0.5 shrink-0 text-bad" />
              <p className="min-w-0 break-words">{review.error}</p>
            </div>
          )}
          <p className="text-fg-muted">
            <span className="tabular-nums">{p.from}</span> →{' '}
            <span className="font-medium text-fg tabular-nums">{p.to}</span>
            <span className="text-fg-subtle"> · {p.id}</span>. The installed version is kept: Roll back in the plugin’s
            detail puts it back.
          </p>
          {p.package && (
            <Section title="Package">
              <PackageInfo pkg={p.package} />
            </Section>
          )}
          <Section title="Trial launch">
            <InstallTrial trial={p.trial} command={p.command} />
          </Section>
          <Section title="What changes in its tools">
            <ToolChanges changes={p.changes} />
          </Section>
          {p.newlyRequested.length > 0 && (
            <Section title="Newly requested">
              <p className="text-xs text-fg">
                {p.newlyRequested.join(', ')}{' '}
                <span className="text-fg-muted">
                  — not granted by the update; grant them in Permissions if you want to.
                </span>
              </p>
            </Section>
          )}
          {p.warnings.length > 0 && (
            <ul className="mt-3 space-y-1 rounded-md border border-warn/30 bg-warn-soft px-3 py-2 text-xs">
              {p.warnings.map((w, i) => (
                <li key={i}>{w}</li>
              ))}
            </ul>
          )}
        </div>
      </Dialog>
    );
  }
  const available = results?.filter((u) => u.status === 'available').length ?? 0;
  return (
    <Dialog
      key="list"
      title="Updates"
      onClose={closeUpdates}
      width="w-[560px]"
      footer={
        <Button data-autofocus onClick={closeUpdates}>
          Close
        </Button>
      }
    >
      <div className="text-[13px]">
        <p className="text-xs text-fg-muted">
          A plugin never changes by itself. Each one’s origin (the catalog, its npm or PyPI package, or the folder it
          was installed from) was asked for its version; nothing is installed until you review and confirm.
        </p>
        {checking && (
          <p className="mt-3 flex items-center gap-2 text-xs text-fg-muted">
            <Spinner /> Checking…
          </p>
        )}
        {error && (
          <p role="alert" className="mt-3 text-xs text-bad">
            {error}
          </p>
        )}
        {results && !checking && (
          <>
            <p className="mt-3 text-xs text-fg" role="status">
              {results.length === 0
                ? 'No installed plugins.'
                : available === 0
                  ? 'Everything is up to date.'
                  : `${available} update${available === 1 ? '' : 's'} available.`}
            </p>
            <ul className="mt-1">
              {results.map((u) => (
                <Row key={u.id} u={u} />
              ))}
            </ul>
          </>
        )}
      </div>
    </Dialog>
  );
}
