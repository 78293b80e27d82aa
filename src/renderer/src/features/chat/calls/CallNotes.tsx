/**
 * Why an approval card asks, where it is more than the tool's policy, above its form: the
 * arguments carry text another plugin returned (the source named: the call is held whatever the
 * policy), the tool's definition changed since it was approved (the diff), what the plugin says
 * of the tool (its hints, never a grant), and text the arguments hide (shown as it is).
 */
import type { JSX, ReactNode } from 'react';
import type { ToolCallInfo } from '../../../../../shared/assistant';
import { hintWords } from '../../../../../shared/tool-hints';
import { hasHidden, stringsOf } from '../../../../../shared/visible-text';
import { changeTitle, DefinitionDiff } from '../../../components/DefinitionDiff';
import { Icon } from '../../../components/Icon';
import { VisibleText } from '../../../components/VisibleText';

function Note({ tone, children, data }: { tone: 'warn' | 'info'; children: ReactNode; data: string }): JSX.Element {
  return (
    <div
      data-call-note={data}
      className={`rounded-md border px-2.5 py-1.5 text-xs text-fg ${tone === 'warn' ? 'border-warn/40 bg-warn-soft' : 'border-line bg-subtle'}`}
    >
      {children}
    </div>
  );
}

export function CallNotes(p: {
  call: ToolCallInfo;
  pluginName: string;
  tool: string;
  args: Record<string, unknown>;
}): JSX.Element | null {
  const { call } = p;
  const hidden = stringsOf(p.args).filter((s) => hasHidden(s.text));
  const hints = hintWords(call.hints);
  if (!call.carried && !call.change && hints.length === 0 && hidden.length === 0) return null;
  return (
    <div className="space-y-1.5">
      {call.carried && (
        <Note tone="warn" data="carried">
          <p className="flex gap-1.5">
            <Icon name="alert" size={13} className="mt-0.5 shrink-0 text-warn" />
            <span>
              Held for you: the arguments carry {call.carried.chars} characters of what{' '}
              <strong className="font-semibold">{call.carried.pluginName}</strong> returned (
              <code className="font-mono">
                {call.carried.plugin}:{call.carried.tool}
              </code>
              ). Text from one plugin going to another asks, whatever this tool’s policy.
            </span>
          </p>
          <p className="mt-1 pl-5 font-mono text-[11px] break-all text-fg-muted">
            {'“'}
            <VisibleText text={call.carried.excerpt} />
            {'”'}
          </p>
        </Note>
      )}
      {call.change && (
        <Note tone="warn" data="changed">
          <p className="mb-1 flex gap-1.5">
            <Icon name="alert" size={13} className="mt-0.5 shrink-0 text-warn" />
            <span>{changeTitle(call.change)}. Read what changed before you allow it.</span>
          </p>
          <DefinitionDiff change={call.change} label={`What changed in ${p.tool}`} />
        </Note>
      )}
      {hidden.length > 0 && (
        <Note tone="warn" data="hidden-text">
          <p className="flex gap-1.5">
            <Icon name="alert" size={13} className="mt-0.5 shrink-0 text-warn" />
            The arguments hold characters a screen does not show; here they are as the plugin would get them:
          </p>
          <ul className="mt-1 space-y-0.5 pl-5 font-mono text-[11px] break-all">
            {hidden.map((h, i) => (
              <li key={i}>
                <span className="text-fg-subtle">{h.at || 'value'}: </span>
                <VisibleText text={h.text} />
              </li>
            ))}
          </ul>
        </Note>
      )}
      {hints.length > 0 && (
        <Note tone="info" data="hints">
          {p.pluginName} says {hints.join(', ')}: a hint from the plugin, not a promise.
        </Note>
      )}
    </div>
  );
}
