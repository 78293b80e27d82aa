/**
 * A plugin's log: history from `plugins.logs`, then live lines. Shows the most recent lines
 * (the whole kept log is what Copy and Export take) and follows new ones unless scrolled up.
 */
import { useEffect, useLayoutEffect, useRef, type JSX } from 'react';
import type { LogEvent } from '../../../../shared/plugin';
import { Button } from '../../components/Button';
import { CopyButton } from '../../components/CopyButton';
import { downloadText } from '../../lib/files';
import { formatClock } from '../../lib/format';
import { loadLogs, logText, useLogs } from '../../stores/plugin-logs';

const SHOWN = 1000;
const levelTone: Record<LogEvent['level'], string> = {
  debug: 'text-fg-subtle',
  info: 'text-fg-muted',
  warn: 'text-warn',
  error: 'text-bad',
};

export function LogTab({ id }: { id: string }): JSX.Element {
  const lines = useLogs((s) => s.logs[id]);
  const error = useLogs((s) => s.errors[id]);
  const box = useRef<HTMLDivElement>(null);
  const follow = useRef(true);

  useEffect(() => {
    void loadLogs(id);
  }, [id]);

  useLayoutEffect(() => {
    const el = box.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  }, [lines]);

  const all = (): string => logText(id);
  const shown = lines && lines.length > SHOWN ? lines.slice(lines.length - SHOWN) : (lines ?? []);
  // Keys by position in the whole log, so appending a line does not remount the others.
  const offset = (lines?.length ?? 0) - shown.length;

  return (
    <div>
      <div className="mb-1.5 flex items-center gap-1">
        <span className="flex-1 text-xs text-fg-muted tabular-nums">
          {lines ? `${lines.length} lines` : 'Loading…'}
        </span>
        <CopyButton text={all} title="Copy the whole log" />
        <Button
          size="sm"
          variant="ghost"
          icon="download"
          onClick={() => downloadText(`${id}-log-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`, `${all()}\n`)}
        >
          Export
        </Button>
      </div>
      {error && <p className="mb-1 text-xs text-bad">Could not load the log: {error}</p>}
      <div
        ref={box}
        role="log"
        aria-label={`${id} log`}
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
        className="h-56 overflow-auto rounded-md border border-line bg-subtle px-2 py-1 font-mono text-[11px] leading-[1.55]"
      >
        {shown.length === 0 && lines && <p className="py-2 font-sans text-fg-subtle">No log lines yet.</p>}
        {lines && lines.length > SHOWN && (
          <p className="font-sans text-fg-subtle">{`Showing the last ${SHOWN} of ${lines.length} lines; Copy and Export include all of them.`}</p>
        )}
        {shown.map((l, i) => (
          <div key={offset + i} className="flex gap-2 whitespace-pre-wrap break-all">
            <span className="shrink-0 text-fg-subtle tabular-nums">{formatClock(l.at)}</span>
            <span className={`w-9 shrink-0 ${levelTone[l.level]}`}>{l.level}</span>
            <span className="w-11 shrink-0 text-fg-subtle">{l.source}</span>
            <span className={`min-w-0 ${l.level === 'error' ? 'text-bad' : 'text-fg'}`}>{l.message}</span>
          </div>
        ))}
      </div>
    </div>
  );
}
