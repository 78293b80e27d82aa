/**
 * A plugin's message, for a call the person made (a `/` command, the palette, passthrough): who
 * answered (plugin, tool), how it went (status as text), what it said (PluginOutput.tsx). A
 * model's calls are cards of their own (calls/ToolCallCard.tsx).
 */
import { memo, useState, type JSX } from 'react';
import type { ChatMessage, MessageStatus } from '../../../../shared/contract';
import { CopyButton } from '../../components/CopyButton';
import { FailureBlock } from '../../components/FailureBlock';
import { Icon } from '../../components/Icon';
import { PluginIcon, useToolIcon } from '../../components/PluginIcon';
import { AppFrame } from './apps/LazyAppFrame';
import { Spinner } from '../../components/Spinner';
import { Timestamp } from './Timestamp';
import { usePlugins } from '../../stores/plugins';
import { PluginOutput } from './PluginOutput';
import { SilentCall } from './SilentCall';
import { StoppedNote } from './StoppedNote';
import { FailureActions } from '../plugins/FailureActions';
import { ExitBadge } from './results/ExitBadge';
import { exitLabel } from './results/result-shape';

const statusTone: Record<MessageStatus, string> = {
  streaming: 'text-info',
  done: 'text-fg-subtle',
  error: 'text-bad',
  cancelled: 'text-fg-subtle',
};

function Status({ status }: { status: MessageStatus }): JSX.Element {
  return (
    <span
      className={`inline-flex items-center gap-1 text-[11px] font-medium ${statusTone[status]}`}
      data-message-status={status}
    >
      {status === 'streaming' && <Spinner size={10} />}
      {status === 'cancelled' ? 'stopped' : status}
    </span>
  );
}

/**
 * The call's arguments, shown on request. The user's message above already shows what was
 * typed; rendering the arguments only when asked keeps the message's text what the plugin said.
 */
function Args({ args }: { args: Record<string, unknown> }): JSX.Element {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        title={open ? 'Hide the arguments' : 'Show the arguments'}
        className="rounded px-1 font-mono text-[11px] text-fg-subtle hover:bg-muted hover:text-fg-muted"
      >
        {open ? '{ − }' : '{…}'}
        <span className="sr-only">arguments</span>
      </button>
      {open && (
        <pre className="order-last mt-1 w-full overflow-x-auto rounded-md border border-line bg-subtle px-2.5 py-1.5 font-mono text-[11.5px]">
          {JSON.stringify(args, null, 2)}
        </pre>
      )}
    </>
  );
}

function TextBehindApp({ m }: { m: ChatMessage }): JSX.Element | null {
  const [open, setOpen] = useState(false);
  if (!m.text && m.result === undefined) return null;
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="inline-flex items-center gap-1 rounded text-[11.5px] font-medium text-fg-muted hover:text-fg"
        data-app-text
      >
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={11} />
        The result as text
      </button>
      {open && (
        <div className="mt-1">
          <PluginOutput m={m} />
        </div>
      )}
    </div>
  );
}

export const PluginMessage = memo(function PluginMessage({ m }: { m: ChatMessage }): JSX.Element {
  const pluginName = usePlugins((s) => (m.pluginId ? s.byId[m.pluginId]?.name : undefined)) ?? m.pluginId ?? 'Plugin';
  const status = m.status ?? 'done';
  const said = status === 'cancelled' ? 'stopped' : status;
  const hasArgs = m.args && Object.keys(m.args).length > 0;
  const icon = useToolIcon(m.pluginId, m.tool);
  const [appShown, setAppShown] = useState(false);
  return (
    <article
      className="group"
      aria-label={`${pluginName}${m.tool ? ` ${m.tool}` : ''}: ${said}${exitLabel(m.result)}`}
      data-message-id={m.id}
      data-role="plugin"
    >
      <header className="mb-1 flex flex-wrap items-center gap-x-2 text-xs">
        <PluginIcon icon={icon} className="h-5 w-5 rounded-md border border-line bg-subtle text-fg-muted" />
        <span className="font-semibold text-fg">{pluginName}</span>
        {m.tool && <code className="font-mono text-[11.5px] text-fg-muted">{m.tool}</code>}
        {hasArgs && <Args args={m.args ?? {}} />}
        <Status status={status} />
        <ExitBadge result={m.result} />
        {m.unshared && (
          <span
            className="text-[11px] text-fg-subtle"
            title="The plugin keeps this command and its result from models"
            data-unshared
          >
            not shared with models
          </span>
        )}
        <span className="ml-auto flex items-center gap-1">
          {m.text && status !== 'streaming' && (
            <span className="opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100">
              <CopyButton text={() => m.text} title="Copy this message’s text" />
            </span>
          )}
          <Timestamp at={m.createdAt} />
        </span>
      </header>
      <div className="space-y-2 pl-7 text-[13.5px] leading-relaxed">
        {m.app && status !== 'cancelled' && <AppFrame m={m} pluginName={pluginName} onShown={setAppShown} />}
        {/* With its App on screen, the result's text (what a model reads) is there on request. */}
        {appShown ? <TextBehindApp m={m} /> : <PluginOutput m={m} />}
        {status === 'streaming' && <SilentCall m={m} />}
        {m.failure && status !== 'cancelled' && (
          <FailureBlock
            failure={m.failure}
            actions={<FailureActions failure={m.failure} pluginId={m.pluginId} tool={m.tool} />}
          />
        )}
        {status === 'cancelled' && <StoppedNote failure={m.failure} pluginName={pluginName} />}
        {/* Said once, by the call that opened the session; its turns keep it open without a word. */}
        {m.keepSession && !m.passthrough && (
          <p className="text-xs text-fg-muted">{pluginName} kept the session open: what you type next goes to it.</p>
        )}
      </div>
    </article>
  );
});
