/**
 * Under a person's message that plugins' prompt enrichers passed through: one line saying who
 * added to what the model read (and who was skipped), opening on a click to show, per enricher,
 * what it did and the text it added or the message it wrote instead. The bubble keeps what the
 * person typed.
 */
import { useState, type JSX } from 'react';
import type { Enrichment } from '../../../../shared/assistant';
import { Icon } from '../../components/Icon';
import { usePlugins } from '../../stores/plugins';
import { enrichmentSummary } from './enrichment-text';

export function EnrichmentNote({ id, steps }: { id: string; steps: readonly Enrichment[] }): JSX.Element {
  const [open, setOpen] = useState(false);
  const names = usePlugins((s) => s.byId);
  const nameOf = (plugin: string): string => names[plugin]?.name ?? plugin;
  const bodyId = `enrichment-${id}`;
  return (
    <div className="mt-1 flex max-w-[85%] flex-col items-end" data-enrichment>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen(!open)}
        className="inline-flex items-center gap-1 rounded px-1 text-[11px] text-fg-muted hover:bg-muted hover:text-fg"
      >
        <Icon name="sparkle" size={11} className="text-accent" />
        {enrichmentSummary(steps, nameOf)}
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={11} />
      </button>
      {open && (
        <ul id={bodyId} className="mt-1 w-full space-y-2 rounded-md border border-line bg-subtle px-2.5 py-2 text-xs">
          {steps.map((s, i) => (
            <li key={`${s.plugin}-${i}`} data-enricher={s.plugin} className="space-y-1">
              <p className="flex items-start gap-1.5">
                <Icon
                  name={s.ok ? 'check' : 'alert'}
                  size={12}
                  className={`mt-0.5 shrink-0 ${s.ok ? 'text-ok' : 'text-warn'}`}
                />
                <span className="min-w-0 break-words">
                  <span className="font-semibold text-fg">{nameOf(s.plugin)}</span>{' '}
                  <span className="text-fg-muted">{s.note}</span>
                </span>
              </p>
              {(s.added ?? s.replaced) && (
                <pre className="max-h-48 overflow-auto rounded border border-line bg-bg px-2 py-1 font-mono text-[11px] whitespace-pre-wrap text-fg-muted">
                  {s.added ?? s.replaced}
                </pre>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
