/**
 * A model's call to a tool, as a card: which plugin and tool, the arguments, who allowed it, the
 * output as it streams, the result or the failure, how long it took. Open while it runs (the
 * output is live), compact once it is done (one line: tool, arguments, who allowed it, duration),
 * open again on a click. A call that waits for the person's answer is the approval card instead;
 * one that waits behind another prompt says so. Output that hides text says so (HiddenInOutput).
 */
import { memo, useState, type JSX } from 'react';
import type { ChatMessage } from '../../../../../shared/contract';
import { FailureBlock } from '../../../components/FailureBlock';
import { Icon } from '../../../components/Icon';
import { PluginIcon, useToolIcon } from '../../../components/PluginIcon';
import { Spinner } from '../../../components/Spinner';
import { setCardOpen, useCards } from '../../../stores/cards';
import { usePlugins } from '../../../stores/plugins';
import { FailureActions } from '../../plugins/FailureActions';
import { PluginOutput } from '../PluginOutput';
import { SilentCall } from '../SilentCall';
import { RequestDetails } from '../RequestDetails';
import { RetryBar } from '../RetryBar';
import { ExitBadge } from '../results/ExitBadge';
import { exitLabel } from '../results/result-shape';
import { AppFrame } from '../apps/LazyAppFrame';
import { ApprovalCard } from './ApprovalCard';
import { HiddenInOutput } from './HiddenInOutput';
import { SamplingApproval } from './SamplingApproval';
import { argsLine, callPhase, cutNote, decidedBy, formatDuration, PHASE_LABEL, type CallPhase } from './call-text';

const phaseTone: Record<CallPhase, string> = {
  queued: 'text-fg-subtle',
  pending: 'text-accent',
  running: 'text-info',
  done: 'text-ok',
  failed: 'text-bad',
  denied: 'text-fg-muted',
  stopped: 'text-fg-muted',
};

function PhaseBadge({ phase }: { phase: CallPhase }): JSX.Element {
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1 text-[11px] font-medium ${phaseTone[phase]}`}
      data-call-phase={phase}
    >
      {phase === 'running' && <Spinner size={10} />}
      {phase === 'done' && <Icon name="check" size={11} />}
      {phase === 'failed' && <Icon name="alert" size={11} />}
      {PHASE_LABEL[phase]}
    </span>
  );
}

function ArgsBlock({ args }: { args: Record<string, unknown> }): JSX.Element | null {
  const [open, setOpen] = useState(false);
  if (Object.keys(args).length === 0) return null;
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="inline-flex items-center gap-1 rounded text-[11.5px] font-medium text-fg-muted hover:text-fg"
      >
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={11} />
        Arguments
      </button>
      {open && (
        <pre className="mt-1 max-h-60 overflow-auto rounded-md border border-line bg-bg px-2.5 py-1.5 font-mono text-[11.5px] leading-relaxed">
          {JSON.stringify(args, null, 2)}
        </pre>
      )}
    </div>
  );
}

export const ToolCallCard = memo(function ToolCallCard({ m }: { m: ChatMessage }): JSX.Element {
  const pluginName =
    usePlugins((s) => (m.pluginId ? s.byId[m.pluginId]?.name : undefined)) ?? m.pluginId ?? m.call?.name ?? 'Tool';
  const chosen = useCards((s) => s.open[m.id]);
  const icon = useToolIcon(m.pluginId, m.tool);
  const phase = callPhase(m);
  // An MCP tool's App, once the call runs (an App's own calls show none: it is above them).
  const showsApp = m.app && !m.call?.fromApp && (phase === 'running' || phase === 'done' || phase === 'failed');
  const call = m.call;
  const frame = (children: JSX.Element): JSX.Element => (
    <article
      className="pl-7"
      aria-label={`${pluginName} ${m.tool ?? ''}: ${PHASE_LABEL[phase]}${exitLabel(m.result)}`}
      data-message-id={m.id}
      data-role="plugin"
      data-call-id={call?.id}
    >
      {children}
      <RetryBar m={m} />
    </article>
  );
  // An MCP server's sampling request runs no tool: its prompt shows what would go to the model.
  if (phase === 'pending')
    return frame(
      call?.sampling ? <SamplingApproval m={m} view={call.sampling} /> : <ApprovalCard m={m} pluginName={pluginName} />,
    );

  const open = chosen ?? (phase === 'running' || phase === 'failed');
  const who = call && (phase === 'done' || phase === 'running' || phase === 'denied') ? decidedBy(call.approval) : null;
  const meta = [
    call?.fromApp ? 'its App asked' : null,
    who,
    call?.durationMs !== undefined ? formatDuration(call.durationMs) : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const cut = cutNote(call?.cutForModel);
  const bodyId = `call-body-${m.id}`;
  return frame(
    <div
      className={`overflow-hidden rounded-lg border ${phase === 'failed' ? 'border-bad/30' : 'border-line'} bg-subtle`}
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setCardOpen(m.id, !open)}
        className="ring-inset flex w-full min-w-0 items-center gap-2 px-3 py-2 text-left hover:bg-muted"
      >
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={12} className="shrink-0 text-fg-subtle" />
        <PluginIcon icon={icon} />
        <span className="shrink-0 text-xs font-semibold text-fg">{pluginName}</span>
        <code className="shrink-0 font-mono text-[11.5px] text-fg-muted">{m.tool}</code>
        <span className="min-w-0 flex-1 truncate font-mono text-[11px] text-fg-subtle">{argsLine(m.args)}</span>
        {phase === 'failed' && m.failure && (
          <code className="shrink-0 rounded bg-bad/12 px-1.5 font-mono text-[10.5px] text-bad">{m.failure.code}</code>
        )}
        {meta && <span className="hidden shrink-0 text-[11px] text-fg-subtle sm:inline">{meta}</span>}
        <ExitBadge result={m.result} />
        <PhaseBadge phase={phase} />
      </button>
      {showsApp && (
        <div className="border-t border-line bg-bg px-3 py-2.5">
          <AppFrame m={m} pluginName={pluginName} />
        </div>
      )}
      {phase === 'queued' && (
        <p className="border-t border-line px-3 py-1.5 text-xs text-fg-muted">
          Waits for your answer to the request before it.
        </p>
      )}
      {open && (
        <div id={bodyId} className="space-y-2 border-t border-line bg-bg px-3 py-2.5 text-[13px] leading-relaxed">
          {meta && <p className="text-[11.5px] text-fg-muted sm:hidden">{meta}</p>}
          <ArgsBlock args={m.args ?? {}} />
          {(m.text || m.result !== undefined || phase === 'running') && (
            <div className="rounded-md border border-line bg-subtle px-2.5 py-2" data-call-output>
              <PluginOutput m={m} />
            </div>
          )}
          {phase === 'running' && <SilentCall m={m} />}
          <HiddenInOutput m={m} />
          {m.failure && (
            <FailureBlock
              failure={m.failure}
              actions={<FailureActions failure={m.failure} pluginId={m.pluginId} tool={m.tool} />}
            />
          )}
          {phase === 'done' && !m.text && m.result === undefined && (
            <p className="text-xs text-fg-subtle">It finished without output.</p>
          )}
          {cut && (
            <p className="flex items-start gap-1.5 text-[11.5px] text-fg-muted" data-cut-for-model>
              <Icon name="alert" size={12} className="mt-0.5 shrink-0 text-warn" />
              {cut}
            </p>
          )}
          {m.keepSession && (
            <p className="text-xs text-fg-muted">{pluginName} kept the session open: what you type next goes to it.</p>
          )}
          {m.request && (
            <div className="flex flex-wrap">
              <RequestDetails request={m.request} id={m.id} />
            </div>
          )}
        </div>
      )}
    </div>,
  );
});
