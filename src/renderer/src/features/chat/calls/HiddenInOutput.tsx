/**
 * A plugin's output that holds what a screen does not show (tag characters, invisible or bidi
 * characters, HTML comments a Markdown view hides: shared/visible-text.ts) says so under the
 * output, with what it holds, and shows the text as the model read it on request.
 */
import { useMemo, useState, type JSX } from 'react';
import { resultText } from '../../../../../shared/chunks';
import type { ChatMessage } from '../../../../../shared/contract';
import { hasHidden, hiddenCounts, hiddenSummary } from '../../../../../shared/visible-text';
import { Icon } from '../../../components/Icon';
import { VisibleText } from '../../../components/VisibleText';

export function HiddenInOutput({ m }: { m: ChatMessage }): JSX.Element | null {
  const [open, setOpen] = useState(false);
  const text = m.text || (m.result === undefined ? '' : resultText(m.result));
  const summary = useMemo(() => (hasHidden(text) ? hiddenSummary(hiddenCounts(text)) : ''), [text]);
  if (!summary || m.status === 'streaming') return null;
  return (
    <div className="rounded-md border border-warn/40 bg-warn-soft px-2.5 py-1.5 text-xs text-fg" data-hidden-output>
      <p className="flex items-start gap-1.5">
        <Icon name="alert" size={13} className="mt-0.5 shrink-0 text-warn" />
        <span className="min-w-0 flex-1">This output holds text a screen does not show: {summary}.</span>
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          className="shrink-0 rounded font-medium text-fg-muted underline hover:text-fg"
        >
          {open ? 'Hide' : 'Show it as it is'}
        </button>
      </p>
      {open && (
        <pre className="mt-1.5 max-h-60 overflow-auto rounded border border-line bg-bg px-2 py-1 font-mono text-[11px] whitespace-pre-wrap break-words">
          <VisibleText text={text} />
        </pre>
      )}
    </div>
  );
}
