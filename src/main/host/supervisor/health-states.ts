/**
 * The health state machine of a supervised plugin, as one table: from each state, the states it
 * may move to. The supervisor asks `HealthReporter.set`, which checks every change against this
 * table; a change the table does not allow is a bug in the supervisor, refused and reported as a
 * host diagnostic instead of shown to the person. Staying in a state with a new reason (say, from
 * "running echo" to "running count") is always allowed.
 *
 * Why each edge exists, in short:
 * - stopped → starting: a user start or a call launches it; → disabled: the user disables it.
 * - starting → ready (a persistent plugin is up), busy (a launched plugin takes its call), failed
 *   (launch, handshake or plan failed), stopped (a stop during the start), restarting (an
 *   automatic relaunch failed and waits for its next try), crashed/unresponsive (a one-shot
 *   process of another call died meanwhile).
 * - ready → busy (a call), stopped, starting (a one-shot plugin's next process while the held one
 *   is let go), crashed/unresponsive (death or a frozen watchdog verdict).
 * - busy → ready (the call ended), stopped (a one-shot plugin is idle again, or a user stop),
 *   starting (another call of a one-shot plugin launches its process), crashed/unresponsive (death,
 *   or a call deadline that killed it), restarting (a cancelled call it cannot stop: recycled).
 * - crashed/unresponsive → restarting (back-off), failed (budget spent), starting (the next
 *   call of a one-shot plugin, or a user start), stopped, and each other (two one-shot processes).
 * - restarting → starting (the relaunch), stopped. failed → starting, stopped.
 * - Every state but disabled → disabled; disabled → stopped (enabled again).
 */
import type { HealthState, LogLevel, LogSource, PluginSpec } from '../../../shared/plugin';
import type { Failure } from '../../../shared/failures';

/** One move of the state machine, as it happened. */
export interface HealthTransition {
  from: HealthState;
  to: HealthState;
  reason: string;
  cause?: Failure;
  at: number;
}

export const HEALTH_TRANSITIONS: Readonly<Record<HealthState, readonly HealthState[]>> = {
  stopped: ['starting', 'disabled'],
  starting: ['ready', 'busy', 'failed', 'stopped', 'restarting', 'crashed', 'unresponsive', 'disabled'],
  ready: ['busy', 'stopped', 'starting', 'crashed', 'unresponsive', 'disabled'],
  busy: ['ready', 'stopped', 'starting', 'crashed', 'unresponsive', 'restarting', 'disabled'],
  crashed: ['restarting', 'failed', 'starting', 'stopped', 'unresponsive', 'disabled'],
  unresponsive: ['restarting', 'failed', 'starting', 'stopped', 'crashed', 'disabled'],
  restarting: ['starting', 'stopped', 'disabled'],
  failed: ['starting', 'stopped', 'disabled'],
  disabled: ['stopped'],
};

export function canTransition(from: HealthState, to: HealthState): boolean {
  return from === to || HEALTH_TRANSITIONS[from].includes(to);
}

const NOTED: Partial<Record<HealthState, LogLevel>> = {
  crashed: 'error',
  unresponsive: 'error',
  failed: 'error',
  restarting: 'warn',
  stopped: 'info',
  disabled: 'info',
};

/**
 * Writes the moves worth remembering into the plugin's log, with their reason: crashes, kills by
 * the watchdog or a deadline, restarts, giving up, stops. A one-shot plugin going idle after each
 * call is not one of them.
 */
export function logTransition(
  spec: PluginSpec,
  t: HealthTransition,
  log: (source: LogSource, level: LogLevel, message: string) => void,
): void {
  const level = isNoted(spec, t) ? NOTED[t.to] : undefined;
  if (level) log('host', level, `${t.to} (was ${t.from}): ${t.reason}`);
}

/** Whether a move belongs in the plugin's health history (its log, and the panel's last events). */
export function isNoted(spec: Pick<PluginSpec, 'persistent'>, t: Pick<HealthTransition, 'from' | 'to'>): boolean {
  if (!NOTED[t.to]) return false;
  return !(t.to === 'stopped' && !spec.persistent && (t.from === 'busy' || t.from === 'ready'));
}
