/** What each health state looks like. Colour is never the only signal: the state is also text. */
import type { HealthState } from '../../../../shared/plugin';

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
