/**
 * The approval card of a call another app made through Plugboard (an MCP client such as Claude
 * Desktop, Cursor or VS Code, through `plugboard mcp` or `/mcp`), shown above whatever the window
 * shows, since it belongs to no conversation. One request at a time, the oldest first, with how
 * many wait behind it; the asking app may show its own form for the same call, and the first
 * answer decides: answered there, the card goes. "Allow once" or "Deny": another app's call is
 * never allowed for longer from here (the tool's policy in the plugin panel does that).
 */
import { useRef, type JSX } from 'react';
import type { ApprovalDecision } from '../../../../shared/assistant';
import { ApprovalFrame, type Answer } from '../chat/calls/ApprovalFrame';
import { useFocusOnce } from '../chat/calls/focus-once';
import { answerExternal, useExternalApprovals } from '../../stores/external-approvals';
import { usePlugins } from '../../stores/plugins';

const ANSWERS: Answer[] = [
  { decision: 'once', label: 'Allow once', variant: 'primary' },
  { decision: 'deny', label: 'Deny', variant: 'danger' },
];

export function ExternalApprovals(): JSX.Element | null {
  const pending = useExternalApprovals((s) => s.pending);
  const busy = useExternalApprovals((s) => s.busy);
  const refusal = useExternalApprovals((s) => s.refusal);
  const first = pending[0];
  const pluginName = usePlugins((s) => (first ? (s.byId[first.plugin]?.name ?? first.plugin) : ''));
  const card = useRef<HTMLDivElement>(null);
  useFocusOnce(first?.id ?? '', card, first !== undefined);
  if (!first) return null;
  const args = JSON.stringify(first.args, null, 2);
  const title = `${first.client} wants to run ${pluginName} → ${first.tool}`;
  return (
    <aside
      aria-label="Requests from other apps"
      className="pb-pop fixed right-4 bottom-24 z-40 w-[400px] max-w-[calc(100vw-32px)]"
      data-external-approvals
    >
      <ApprovalFrame
        cardRef={card}
        title={title}
        heading={
          <>
            <span className="text-fg">{first.client}</span> wants to run{' '}
            <span className="font-mono text-[12.5px]">
              {pluginName} → {first.tool}
            </span>
          </>
        }
        subtitle={`From another app, through MCP. It waits for your answer, here or in ${first.client}.${pending.length > 1 ? ` ${pending.length - 1} more waiting.` : ''}`}
        data={{ 'data-external-approval': first.id }}
        bodyLabel="Arguments"
        refusal={refusal?.id === first.id ? refusal.message : null}
        answers={ANSWERS}
        busy={busy as ApprovalDecision | null}
        onAnswer={(d) => void answerExternal(first.id, d === 'deny' ? 'deny' : 'once')}
      >
        {args === '{}' ? (
          <p className="text-xs text-fg-muted">No arguments.</p>
        ) : (
          <pre className="max-h-48 overflow-auto rounded-md border border-line bg-subtle px-2.5 py-2 font-mono text-[12px] whitespace-pre-wrap text-fg">
            {args}
          </pre>
        )}
      </ApprovalFrame>
    </aside>
  );
}
