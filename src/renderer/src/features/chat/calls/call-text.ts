/**
 * The words a tool-call card uses: its state, who decided, how long it took, its arguments in
 * one line. Pure functions of the message, shared by the card and the tests.
 */
import type { ApprovalState } from '../../../../../shared/assistant';
import type { ChatMessage } from '../../../../../shared/contract';

export type CallPhase = 'queued' | 'pending' | 'running' | 'done' | 'failed' | 'denied' | 'stopped';

export function callPhase(m: ChatMessage): CallPhase {
  const approval = m.call?.approval.state;
  if (m.status === 'streaming')
    return approval === 'pending' ? 'pending' : approval === 'queued' ? 'queued' : 'running';
  if (m.status === 'error') return 'failed';
  if (m.status === 'cancelled') return approval === 'denied' && !m.failure ? 'denied' : 'stopped';
  return 'done';
}

export const PHASE_LABEL: Record<CallPhase, string> = {
  queued: 'Queued',
  pending: 'Needs your answer',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  denied: 'Denied',
  stopped: 'Stopped',
};

/** Who let the call run or kept it from running, in words; null while nobody has decided yet. */
export function decidedBy(a: ApprovalState): string | null {
  if (a.state === 'queued') return 'waits for the prompt before it';
  if (a.state === 'pending') return 'waits for your answer';
  if (a.by === 'policy') return a.state === 'allowed' ? 'allowed by policy' : 'denied by policy';
  if (a.by === 'flag') return a.state === 'allowed' ? 'allowed by --approve all' : 'denied by --approve none';
  if (a.state === 'denied') return 'you denied it';
  switch (a.decision) {
    case 'conversation':
      return 'allowed for this conversation';
    case 'always':
      return 'you always allow it';
    case 'once':
      return 'you allowed it once';
    default:
      return 'you allowed it';
  }
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  const min = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return s === 0 ? `${min} min` : `${min} min ${s} s`;
}

/** `to: 3, delay_ms: 0`: the arguments at a glance, each value short; the card shows them whole. */
export function argsLine(args: Record<string, unknown> | undefined, max = 80): string {
  if (!args) return '';
  const parts = Object.entries(args).map(([k, v]) => {
    const text = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
    return `${k}: ${text.length > 40 ? `${text.slice(0, 39)}…` : text}`;
  });
  const line = parts.join(', ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The note for a result the model got only part of. */
export function cutNote(cut: number | undefined): string | null {
  if (!cut || cut <= 0) return null;
  return `The model got the beginning and the end of this output only: ${cut.toLocaleString('en-US')} characters in the middle were cut for it. The card shows all of it.`;
}
