/**
 * The package step's output as it comes (npm fetching, pip collecting…): the last lines, in a
 * box that follows the end, so a person waiting on a first install sees it move and what it is
 * doing. Nothing is shown when the step has written nothing (most plugins have no package).
 */
import { useEffect, useRef, type JSX } from 'react';
import { useInstallProgress } from '../../stores/install-progress';

const SHOWN = 40;

export function InstallProgress(): JSX.Element | null {
  const lines = useInstallProgress((s) => s.lines);
  const box = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines]);
  if (lines.length === 0) return null;
  return (
    <pre
      ref={box}
      role="log"
      aria-label="Installing its package"
      className="mt-3 max-h-40 overflow-auto rounded bg-subtle px-2 py-1.5 font-mono text-[11px] leading-snug whitespace-pre text-fg-muted"
    >
      {lines.slice(-SHOWN).join('\n')}
    </pre>
  );
}
