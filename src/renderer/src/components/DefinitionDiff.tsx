/**
 * What changed in a tool's definition (shared/definitions.ts), as a line diff: removed lines
 * red with `-`, added green with `+`, unchanged context muted; hidden characters marked
 * (VisibleText). A new tool shows its whole definition as added.
 */
import type { JSX } from 'react';
import type { DefinitionChange } from '../../../shared/definitions';
import { VisibleText } from './VisibleText';

const TONE = { '+': 'bg-ok/10 text-fg', '-': 'bg-bad/10 text-fg', ' ': 'text-fg-subtle' };

export function DefinitionDiff({ change, label }: { change: DefinitionChange; label: string }): JSX.Element {
  return (
    <pre
      aria-label={label}
      data-definition-diff={change.kind}
      className="max-h-56 overflow-auto rounded-md border border-line bg-bg py-1 font-mono text-[11px] leading-relaxed whitespace-pre-wrap"
    >
      {change.lines.map((l, i) => (
        <div
          key={i}
          className={`flex px-2 ${TONE[l.op]}`}
          data-op={l.op === ' ' ? 'same' : l.op === '+' ? 'added' : 'removed'}
        >
          {/* Its own column: a wrapped line stays clear of the + and − signs. */}
          <span aria-hidden="true" className="w-3.5 shrink-0 select-none text-fg-subtle">
            {l.op}
          </span>
          <span className="min-w-0 flex-1">
            <span className="sr-only">{l.op === '+' ? 'added: ' : l.op === '-' ? 'removed: ' : ''}</span>
            <VisibleText text={l.text} />
          </span>
        </div>
      ))}
    </pre>
  );
}

/** "Changed since you approved it on 2025-01-02" / "New since you approved this plugin's tools". */
export function changeTitle(change: DefinitionChange): string {
  if (change.kind === 'new') return 'New: this tool was not there when its plugin’s tools were recorded';
  return `Changed since it was approved${change.since ? ` (${change.since.slice(0, 10)})` : ''}`;
}
