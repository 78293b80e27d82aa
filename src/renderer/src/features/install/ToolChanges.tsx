/**
 * What an update changes in a plugin's tools: the tools added and removed, and each changed
 * description or input schema as a line diff (added lines green with `+`, removed ones red with
 * `-`, and the sign in the text too, so it reads without colour). When either version's tools
 * are not known, it says so instead of guessing.
 */
import { useId, useState, type JSX } from 'react';
import type { DiffLine, ToolChangesView, ToolChangeView } from '../../../../shared/updates';
import { Icon } from '../../components/Icon';

function Diff({ lines, label }: { lines: DiffLine[]; label: string }): JSX.Element {
  return (
    <pre
      aria-label={label}
      className="mt-1 max-h-56 overflow-auto rounded border border-line bg-subtle py-1 font-mono text-[11px] leading-[1.45]"
    >
      {lines.map((l, i) => (
        <div
          key={i}
          className={`px-2 whitespace-pre-wrap ${l.op === '+' ? 'bg-ok-soft text-fg' : l.op === '-' ? 'bg-bad-soft text-fg' : 'text-fg-muted'}`}
        >
          <span aria-hidden="true" className={l.op === '+' ? 'text-ok' : l.op === '-' ? 'text-bad' : 'text-fg-subtle'}>
            {l.op === ' ' ? ' ' : l.op}{' '}
          </span>
          {l.text}
        </div>
      ))}
    </pre>
  );
}

function Changed({ t }: { t: ToolChangeView }): JSX.Element {
  const [open, setOpen] = useState(true);
  const id = useId();
  const what = [t.description ? 'description' : '', t.schema ? 'input schema' : ''].filter(Boolean).join(' and ');
  return (
    <li className="rounded-md border border-line px-2 py-1.5">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center gap-1.5 text-left"
      >
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={12} className="text-fg-subtle" />
        <code className="font-mono text-fg">{t.name}</code>
        <span className="text-fg-muted">· {what} changed</span>
      </button>
      {open && (
        <div id={id} className="mt-1 space-y-1.5">
          {t.description && <Diff lines={t.description} label={`Description of ${t.name}, before and after`} />}
          {t.schema && <Diff lines={t.schema} label={`Input schema of ${t.name}, before and after`} />}
        </div>
      )}
    </li>
  );
}

export function ToolChanges({ changes }: { changes: ToolChangesView }): JSX.Element {
  if (!changes.known) return <p className="text-xs text-fg-muted">{changes.note}</p>;
  const none = !changes.added.length && !changes.removed.length && !changes.changed.length;
  return (
    <div className="space-y-2 text-xs" data-tool-changes="">
      <p className="text-fg-muted">
        {none
          ? `No change to its ${changes.unchanged} tools.`
          : `${changes.added.length} added, ${changes.removed.length} removed, ${changes.changed.length} changed, ${changes.unchanged} the same.`}
      </p>
      {(changes.added.length > 0 || changes.removed.length > 0) && (
        <ul className="space-y-0.5">
          {changes.added.map((t) => (
            <li key={`+${t.name}`} className="flex gap-2">
              <span className="w-14 shrink-0 rounded bg-ok-soft px-1 text-center text-ok">added</span>
              <code className="shrink-0 font-mono text-fg">{t.name}</code>
              <span className="min-w-0 truncate text-fg-muted">{t.description}</span>
            </li>
          ))}
          {changes.removed.map((t) => (
            <li key={`-${t.name}`} className="flex gap-2">
              <span className="w-14 shrink-0 rounded bg-bad-soft px-1 text-center text-bad">removed</span>
              <code className="shrink-0 font-mono text-fg">{t.name}</code>
              <span className="min-w-0 truncate text-fg-muted">{t.description}</span>
            </li>
          ))}
        </ul>
      )}
      {changes.changed.length > 0 && (
        <ul className="space-y-1.5">
          {changes.changed.map((t) => (
            <Changed key={t.name} t={t} />
          ))}
        </ul>
      )}
    </div>
  );
}
