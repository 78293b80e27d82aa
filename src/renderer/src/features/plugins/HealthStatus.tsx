/**
 * A plugin's health: a coloured dot and the state as text. The text element has role "status"
 * and holds exactly the state name (a remote server waiting for a sign-in is `needs sign-in`,
 * amber: nothing is wrong with it, the person has a step to take), so assistive technology (and tests) read it as is; the
 * reason is its tooltip, follows it for screen readers, and is shown in full in the detail.
 */
import type { JSX } from 'react';
import type { HealthEvent } from '../../../../shared/plugin';
import { healthTone, shownState } from './health';

export function HealthStatus({ health }: { health: HealthEvent }): JSX.Element {
  const shown = shownState(health);
  const tone = shown === 'needs sign-in' ? healthTone.unresponsive : healthTone[health.state];
  return (
    <span className="inline-flex items-center gap-1.5" title={health.reason || health.state}>
      <span
        className={`h-2 w-2 shrink-0 rounded-full ${tone.dot} ${tone.pulse ? 'pb-pulse' : ''}`}
        aria-hidden="true"
      />
      <span role="status" className={`text-xs font-medium ${tone.text}`}>
        {shown}
      </span>
      {health.reason && <span className="sr-only">{`: ${health.reason}`}</span>}
    </span>
  );
}
