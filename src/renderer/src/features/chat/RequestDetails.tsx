/**
 * What one request to the model carried (ChatMessage.request, on the step's first message): the
 * tools offered, out of how many exposed (the tool budget chooses among them, find_tools finds
 * the rest), whose system instructions went in and whose the budget left out, and its size.
 * Folded by default: it answers "why did the model not use my tool?" when someone asks it.
 */
import { useState, type JSX } from 'react';
import type { RequestInfo } from '../../../../shared/assistant';
import { Icon } from '../../components/Icon';
import { requestSummary } from './answer-text';

function Names({ names }: { names: string[] }): JSX.Element {
  return (
    <span className="flex flex-wrap gap-1">
      {names.map((n) => (
        <code key={n} className="rounded bg-muted px-1 font-mono text-[10.5px] text-fg-muted">
          {n}
        </code>
      ))}
    </span>
  );
}

/**
 * A button and, once opened, the details below it: in a wrapping row (an answer's footer) the
 * details take a line of their own at the end, and the row itself does not move.
 */
export function RequestDetails({ request: r, id }: { request: RequestInfo; id: string }): JSX.Element {
  const [open, setOpen] = useState(false);
  const bodyId = `request-${id}`;
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen(!open)}
        className="inline-flex items-center gap-0.5 rounded px-1 text-[11px] text-fg-subtle hover:bg-muted hover:text-fg-muted"
        data-request-details
      >
        {requestSummary(r)}
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={10} />
      </button>
      {open && (
        <dl
          id={bodyId}
          className="order-last mt-1 grid basis-full grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-md border border-line bg-subtle px-2.5 py-2 text-[11px] text-fg-subtle"
          data-request-body
        >
          <dt>Tools</dt>
          <dd>
            <Names names={r.tools} />
          </dd>
          <dt>Instructions</dt>
          <dd className="text-fg-muted">
            {r.instructionsFrom.length > 0 ? <Names names={r.instructionsFrom} /> : 'none'}
          </dd>
          {r.instructionsLeftOut.length > 0 && (
            <>
              <dt>Left out</dt>
              <dd className="text-fg-muted">
                <Names names={r.instructionsLeftOut} /> (over the instructions budget)
              </dd>
            </>
          )}
          <dt>Size</dt>
          <dd className="text-fg-muted tabular-nums">about {r.estimatedTokens.toLocaleString('en-US')} tokens</dd>
        </dl>
      )}
    </>
  );
}
