/**
 * A message an edit or a regenerated answer replaced: one quiet line (what it was), and the
 * message itself on request. Kept so nothing the person or a model wrote is lost; never sent to
 * a model again.
 */
import { useState, type JSX, type ReactNode } from 'react';
import type { ChatMessage } from '../../../../shared/contract';
import { Icon } from '../../components/Icon';

function what(m: ChatMessage): string {
  if (m.role === 'user') return `Your earlier message: “${m.text.length > 60 ? `${m.text.slice(0, 60)}…` : m.text}”`;
  if (m.role === 'assistant') return `Earlier answer${m.model ? ` from ${m.model}` : ''}`;
  return `Earlier call: ${m.pluginId ?? ''} ${m.tool ?? ''}`.trim();
}

export function EarlierVersion({ m, children }: { m: ChatMessage; children: ReactNode }): JSX.Element {
  const [open, setOpen] = useState(false);
  return (
    <div data-earlier-version={m.id} data-role-replaced={m.role}>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="inline-flex max-w-full items-center gap-1.5 rounded px-1 text-[11.5px] text-fg-subtle hover:text-fg-muted"
      >
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={11} className="shrink-0" />
        <Icon name="clock" size={11} className="shrink-0" />
        <span className="truncate">{what(m)}</span>
        <span className="shrink-0 underline-offset-2 hover:underline">{open ? 'Hide' : 'Show'}</span>
      </button>
      {open && <div className="mt-2 border-l-2 border-line pl-3 opacity-80">{children}</div>}
    </div>
  );
}
