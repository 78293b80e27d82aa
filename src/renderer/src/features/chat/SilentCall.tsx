/**
 * A running call that has gone quiet (issue 21): a hung call showed "streaming · Working…" for its
 * whole deadline, with nothing to say it was stuck or what to do. After a few seconds without a
 * message from the plugin, the call says for how long, when Plugboard stops waiting (the plugin's
 * call timeout), and offers Stop (this call) and Restart (the plugin) before that deadline.
 *
 * The silence is counted here, from what reaches the window: the call's start while it has said
 * nothing (its creation time, so it survives a reload), else the last change of its output.
 */
import { useEffect, useRef, useState, type JSX } from 'react';
import type { ChatMessage } from '../../../../shared/contract';
import { Button } from '../../components/Button';
import { getApi } from '../../api';
import { runOp } from '../../stores/ops';
import { runLifecycle, usePlugins } from '../../stores/plugins';

/** Quiet for this long, a call says so: most calls answer or stream well within it. */
export const SILENT_AFTER_MS = 5000;

function seconds(ms: number): string {
  return `${Math.max(0, Math.floor(ms / 1000))} s`;
}

export function SilentCall({ m }: { m: ChatMessage }): JSX.Element | null {
  const plugin = usePlugins((s) => (m.pluginId ? s.byId[m.pluginId] : undefined));
  const output = `${m.text.length}:${m.result === undefined ? '' : 'r'}`;
  const last = useRef({ output, at: m.text || m.result !== undefined ? Date.now() : m.createdAt });
  if (last.current.output !== output) last.current = { output, at: Date.now() };
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const quiet = now - last.current.at;
  if (quiet < SILENT_AFTER_MS || !m.pluginId) return null;
  const name = plugin?.name ?? m.pluginId;
  const deadline = plugin?.callInactivityMs;
  const turnId = m.turnId;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-x-3 gap-y-1.5 rounded-md border border-warn/40 bg-warn/10 px-2.5 py-1.5 text-xs text-fg"
      data-silent-call
    >
      <span>
        <span className="font-medium">{`No message from ${name} for ${seconds(quiet)}`}</span>
        {deadline !== undefined && (
          <span className="text-fg-muted">{` — Plugboard stops waiting at ${seconds(deadline)}.`}</span>
        )}
      </span>
      <span className="flex gap-1.5">
        {turnId && (
          <Button
            size="sm"
            icon="stop"
            aria-label={`Stop this call to ${name}`}
            onClick={() => void runOp(() => getApi().invoke('chat.cancel', { turnId }), 'Stop')}
          >
            Stop call
          </Button>
        )}
        <Button
          size="sm"
          icon="restart"
          aria-label={`Restart ${name}`}
          onClick={() => void runLifecycle(m.pluginId as string, 'restart')}
        >
          Restart {name}
        </Button>
      </span>
    </div>
  );
}
