/** What each health state looks like. Colour is never the only signal: the state is also text. */
import type { HealthEvent, HealthState } from '../../../../shared/plugin';

export const healthTone: Record<HealthState, { dot: string; text: string; pulse?: boolean }> = {
  ready: { dot: 'bg-ok', text: 'text-ok' },
  busy: { dot: 'bg-info', text: 'text-info', pulse: true },
  starting: { dot: 'bg-info', text: 'text-info', pulse: true },
  restarting: { dot: 'bg-warn', text: 'text-warn', pulse: true },
  unresponsive: { dot: 'bg-warn', text: 'text-warn' },
  crashed: { dot: 'bg-bad', text: 'text-bad' },
  failed: { dot: 'bg-bad', text: 'text-bad' },
  disabled: { dot: 'bg-idle', text: 'text-fg-subtle' },
  stopped: { dot: 'bg-idle', text: 'text-fg-subtle' },
};

/** States that deserve attention: the toolbar shows a mark when any plugin is in one. */
export function isTrouble(state: HealthState): boolean {
  return state === 'crashed' || state === 'failed' || state === 'unresponsive';
}

/** The state as the panel words it: a remote server that stopped for want of a sign-in needs one, it did not fail. */
export function shownState(health: Pick<HealthEvent, 'state' | 'failure'>): HealthState | 'needs sign-in' {
  return health.state === 'failed' && health.failure?.code === 'sign_in_required' ? 'needs sign-in' : health.state;
}
