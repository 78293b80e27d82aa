/**
 * A command's exit status next to the call's state: `exit 0` quietly, `exit 3` or `killed by
 * SIGKILL` as a warning. A non-zero exit is the command's answer, not a failure of the plugin or
 * the host: the call itself went fine, so the state stays "done" and only this line warns.
 */
import type { JSX } from 'react';
import { exitStatusOf, exitText } from './result-shape';

export function ExitBadge({ result }: { result: unknown }): JSX.Element | null {
  const status = exitStatusOf(result);
  if (!status) return null;
  const { text, warn } = exitText(status);
  return (
    <span
      className={`shrink-0 rounded px-1.5 font-mono text-[10.5px] font-medium ${warn ? 'bg-warn-soft text-warn ring-1 ring-warn/30 ring-inset' : 'text-fg-subtle'}`}
      title={warn ? 'The command did not succeed' : 'The command succeeded'}
      data-exit-code={status.code ?? status.signal ?? ''}
    >
      {text}
    </span>
  );
}
