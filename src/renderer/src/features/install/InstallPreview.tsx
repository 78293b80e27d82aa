/**
 * What installing a package would do: its identity, the package its runner fetches (installed and
 * pinned), how trying it went and the command it runs, its tools (names and descriptions as they
 * are: hidden characters marked), what the scan of them noticed (flags inform, they do not block),
 * the folders and files it is given (each a grant), the capabilities it requests and those it may
 * be granted unrequested (the network), and the settings it needs.
 */
import { useId, type JSX, type ReactNode } from 'react';
import type { CapabilityView, InstallPreviewView } from '../../../../shared/contract';
import { CodeMarks } from '../../components/CodeMarks';
import { Icon } from '../../components/Icon';
import { PluginIcon } from '../../components/PluginIcon';
import type { FolderChoice } from '../../stores/install';
import { toggleGrant } from '../../stores/install-choices';
import { InstallTrial } from './InstallTrial';
import { PackageInfo } from './PackageInfo';
import { PathGrants } from './PathGrants';
import { ToolChanges } from './ToolChanges';
import { ToolFlags } from '../../components/ToolFlags';
import { VisibleText } from '../../components/VisibleText';

const SHOWN_TOOLS = 8;

function Section({ title, children }: { title: string; children: ReactNode }): JSX.Element {
  const id = useId();
  return (
    <section className="mt-4" aria-labelledby={id}>
      <h3 id={id} className="mb-1.5 text-[11px] font-semibold tracking-wide text-fg-subtle uppercase">
        {title}
      </h3>
      {children}
    </section>
  );
}

function Capability({ c, granted }: { c: CapabilityView; granted: boolean }): JSX.Element {
  return (
    <li>
      <label className="flex cursor-pointer items-start gap-2">
        <input
          type="checkbox"
          checked={granted}
          onChange={() => toggleGrant(c.name)}
          aria-describedby={`cap-${c.name}-desc`}
          className="mt-0.5 h-3.5 w-3.5 accent-[var(--accent)]"
        />
        <span className="min-w-0">
          <span className="font-medium text-fg">{c.title}</span>{' '}
          <code className="font-mono text-[11px] text-fg-subtle">{c.name}</code>
          {!c.requested && <span className="ml-1.5 text-[10px] tracking-wide text-warn uppercase">not requested</span>}
          <span id={`cap-${c.name}-desc`} className="block text-xs text-fg-muted">
            <CodeMarks text={c.description} />
            <span className="text-fg-subtle">
              {' '}
              <CodeMarks text={c.enforcementNote} />
            </span>
          </span>
        </span>
      </label>
    </li>
  );
}

export function InstallPreview({
  preview,
  grants,
  folders,
  error,
  onTryAgain,
  trying = false,
}: {
  preview: InstallPreviewView;
  grants: string[];
  folders: FolderChoice[];
  error: string | null;
  /** Tries the staged copy again with the form's values and the choices made here. */
  onTryAgain?: () => void;
  trying?: boolean;
}): JSX.Element {
  const more = preview.tools.length - SHOWN_TOOLS;
  return (
    <div className="text-[13px]">
      {error && (
        <div role="alert" className="mb-3 flex gap-2 rounded-md border border-bad/30 bg-bad-soft px-3 py-2 text-fg">
          <Icon name="alert" className="mt-0.5 shrink-0 text-bad" />
          <p className="min-w-0 break-words whitespace-pre-wrap">{error}</p>
        </div>
      )}
      <div className="flex items-start gap-3">
        <PluginIcon
          icon={preview.about?.icon}
          size={18}
          className="h-9 w-9 rounded-lg border border-line bg-subtle text-fg-muted"
        />
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-baseline gap-x-2">
            <span className="text-[14px] font-semibold">{preview.name}</span>
            <span className="text-xs text-fg-muted tabular-nums">version {preview.version}</span>
          </p>
          <p className="text-xs text-fg-subtle">
            <code className="font-mono">{preview.id}</code> · protocol{' '}
            <span className="font-mono">{preview.dialect}</span>
          </p>
          {(preview.about?.author || preview.about?.license) && (
            <p className="text-xs text-fg-subtle" data-install-about>
              {[
                preview.about.author ? `by ${preview.about.author}` : '',
                preview.about.license ? `${preview.about.license} license` : '',
              ]
                .filter(Boolean)
                .join(' · ')}
            </p>
          )}
          {preview.replaces && (
            <p className="mt-1 inline-flex rounded bg-warn-soft px-1.5 py-px text-xs text-warn">
              replaces version {preview.replaces.version}
            </p>
          )}
        </div>
      </div>
      {preview.description && <p className="mt-2 text-fg-muted">{preview.description}</p>}
      {preview.warnings.length > 0 && (
        <ul className="mt-3 space-y-1 rounded-md border border-warn/30 bg-warn-soft px-3 py-2 text-xs text-fg">
          {preview.warnings.map((w, i) => (
            <li key={i} className="flex gap-1.5">
              <Icon name="alert" size={13} className="mt-0.5 shrink-0 text-warn" />
              {w}
            </li>
          ))}
        </ul>
      )}
      {preview.package && (
        <Section title="Package">
          <PackageInfo pkg={preview.package} />
        </Section>
      )}
      <Section title="Trial launch">
        <InstallTrial
          trial={preview.trial}
          command={preview.command}
          {...(onTryAgain ? { onTryAgain } : {})}
          trying={trying}
        />
      </Section>
      {preview.changes && (
        <Section title={`What changes in its tools (from ${preview.replaces?.version ?? 'the installed version'})`}>
          <ToolChanges changes={preview.changes} />
        </Section>
      )}
      <Section title={`Tools (${preview.tools.length})`}>
        {preview.tools.length === 0 ? (
          <p className="text-xs text-fg-subtle">No tools declared.</p>
        ) : (
          <ul className="space-y-0.5 text-xs">
            {preview.tools.slice(0, SHOWN_TOOLS).map((t) => (
              <li key={t.name} className="flex gap-2">
                <code className="shrink-0 font-mono text-fg">
                  <VisibleText text={t.name} name />
                </code>
                {/* A flagged tool's description is shown whole: what was flagged may be past the cut. */}
                <span
                  className={`min-w-0 text-fg-muted ${preview.flags.some((f) => f.tool === t.name) ? 'whitespace-pre-wrap' : 'truncate'}`}
                >
                  <VisibleText text={t.description} />
                </span>
              </li>
            ))}
            {more > 0 && <li className="text-fg-subtle">and {more} more</li>}
          </ul>
        )}
      </Section>
      {preview.flags.length > 0 && (
        <Section title="What the scan noticed">
          <ToolFlags
            flags={preview.flags}
            named
            data="data-install-flag"
            className="space-y-1 rounded-md border border-warn/30 bg-warn-soft px-3 py-2 text-xs text-fg"
          />
          <p className="mt-1 text-[11px] text-fg-subtle">
            These are for you to read; they do not stop the install. Its tools ask before a model’s call runs.
          </p>
        </Section>
      )}
      {folders.length > 0 && (
        <Section title="Folders and files it is given">
          <PathGrants folders={folders} />
          <p className="mt-1 text-[11px] text-fg-subtle">
            Its manifest names these, so its author chose them: it gets only those you tick.
          </p>
        </Section>
      )}
      <Section title="Capabilities it asks for">
        {preview.requested.length === 0 ? (
          <p className="text-xs text-fg-subtle">None.</p>
        ) : (
          <ul className="space-y-2">
            {preview.requested.map((c) => (
              <Capability key={c.name} c={c} granted={grants.includes(c.name)} />
            ))}
          </ul>
        )}
        {preview.unrequested.length > 0 && (
          <>
            <p className="mt-2.5 mb-1.5 text-[11px] text-fg-subtle">
              Not requested by the plugin, but yours to grant if it needs it:
            </p>
            <ul className="space-y-2">
              {preview.unrequested.map((c) => (
                <Capability key={c.name} c={c} granted={grants.includes(c.name)} />
              ))}
            </ul>
          </>
        )}
      </Section>
      {/* A preview with its settings listed has the form (InstallSettings.tsx) instead. */}
      {preview.requiredSettings.length > 0 && !preview.settings && (
        <Section title="Settings it needs">
          <ul className="space-y-0.5 text-xs">
            {preview.requiredSettings.map((s) => (
              <li key={s.key}>
                <span className="text-fg">{s.title || s.key}</span>
                {s.sensitive && <span className="text-fg-subtle"> (secret)</span>}
                {s.description && <span className="text-fg-muted"> — {s.description}</span>}
              </li>
            ))}
          </ul>
          <p className="mt-1 text-[11px] text-fg-subtle">
            You can fill these in from the plugin’s Settings after installing.
          </p>
        </Section>
      )}
    </div>
  );
}
