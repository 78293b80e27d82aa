/**
 * A message's time. It is drawn as CSS generated content, not as text: a message's text content
 * stays what was said, so selecting, copying or searching a conversation does not pick up clock
 * times (and a check of what a message says is not fooled by "06:58"). Screen readers still read
 * generated content, and the full date is the tooltip.
 */
import type { JSX } from 'react';
import { formatTime } from '../../lib/format';

export function Timestamp({ at }: { at: number }): JSX.Element {
  const d = new Date(at);
  return (
    <time
      dateTime={d.toISOString()}
      title={d.toLocaleString()}
      data-time={formatTime(at)}
      className="text-[11px] text-fg-subtle tabular-nums select-none after:content-[attr(data-time)]"
    />
  );
}
