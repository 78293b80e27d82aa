/**
 * A failure as a person can act on it: its code, its message, and the facts that apply (the
 * command, the PATH searched, the exit code or signal, the last stderr lines). The stderr tail is
 * collapsible and starts open in chat (after a crash it is usually the answer); the plugin panel,
 * where space is tight, starts it closed.
 */
import type { JSX, ReactNode } from 'react';
import { describeFailure, type Failure } from '../../../shared/failures';
import { CopyButton } from './CopyButton';

function Fact({ label, children }: { label: string; children: string }): JSX.Element {
  return (
    <div className="flex gap-2">
      <dt className="w-[106px] shrink-0 text-fg-subtle">{label}</dt>
      <dd className="min-w-0 font-mono text-[11.5px] break-all text-fg-muted">{children}</dd>
    </div>
  );
}

export function FailureBlock({
  failure,
  stderrOpen = true,
  actions,
}: {
  failure: Failure;
  stderrOpen?: boolean;
  actions?: ReactNode;
}): JSX.Element {
  const d = failure.details ?? {};
  const stderr = d.stderrTail ?? [];
  const rpc = d.rpcCode !== undefined ? `${d.rpcCode}${d.rpcMeaning ? ` (${d.rpcMeaning})` : ''}` : null;
  const hasFacts =
    d.command ||
    d.cwd ||
    d.pathSearched !== undefined ||
    (d.exitCode !== undefined && d.exitCode !== null) ||
    d.signal ||
    rpc;
  return (
    <div className="rounded-md border border-bad/30 bg-bad-soft px-3 py-2 text-xs" data-failure-code={failure.code}>
      <div className="flex items-start gap-2">
        <code className="mt-px shrink-0 rounded bg-bad/12 px-1.5 py-px font-mono text-[11px] font-semibold text-bad">
          {failure.code}
        </code>
        <p className="min-w-0 flex-1 text-[12.5px] break-words whitespace-pre-wrap text-fg">{failure.message}</p>
        <CopyButton text={() => describeFailure(failure)} title="Copy the failure and its details" />
      </div>
      {hasFacts && (
        <dl className="mt-2 space-y-0.5">
          {d.command && <Fact label="command">{d.command.join(' ')}</Fact>}
          {d.cwd && <Fact label="working directory">{d.cwd}</Fact>}
          {d.pathSearched !== undefined && <Fact label="PATH searched">{d.pathSearched || '(empty)'}</Fact>}
          {d.exitCode !== undefined && d.exitCode !== null && <Fact label="exit code">{String(d.exitCode)}</Fact>}
          {d.signal && <Fact label="signal">{d.signal}</Fact>}
          {rpc && <Fact label="error code">{rpc}</Fact>}
        </dl>
      )}
      {actions}
      {stderr.length > 0 && (
        <details open={stderrOpen} className="group mt-2">
          <summary className="cursor-pointer select-none text-fg-muted hover:text-fg">
            Last stderr lines ({stderr.length})
          </summary>
          <pre className="mt-1 max-h-56 overflow-auto rounded border border-line bg-bg px-2 py-1.5 font-mono text-[11.5px] leading-relaxed whitespace-pre-wrap break-all text-fg-muted">
            {stderr.join('\n')}
          </pre>
        </details>
      )}
    </div>
  );
}
