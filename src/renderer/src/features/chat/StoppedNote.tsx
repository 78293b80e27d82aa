/**
 * How a stopped call ends its card: a neutral line, not a failure (issue 12). What the call
 * produced stays above it. When stopping meant restarting the plugin (it has no way to cancel a
 * call, G-Assist for one), the line says so; a stop for another reason than the person's own
 * (the app closing) names it.
 */
import type { JSX } from 'react';
import type { Failure } from '../../../../shared/failures';

const OWN_STOP = /^(?:(?:stopped|cancelled) by the user|cancelled)$/;

export function StoppedNote({
  failure,
  pluginName,
}: {
  failure: Failure | undefined;
  pluginName: string;
}): JSX.Element {
  const why = failure && !OWN_STOP.test(failure.message) ? failure.message : null;
  return (
    <p className="text-xs text-fg-subtle" data-stopped-note>
      Stopped{why ? `: ${why}` : ''}.
      {failure?.details?.restarted && ` ${pluginName} cannot cancel a call it has started, so Plugboard restarted it.`}
    </p>
  );
}
