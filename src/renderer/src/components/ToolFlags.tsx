/**
 * What the scan of a plugin's tools noticed (shared/tool-scan.ts), one line each, the words that
 * tripped a flag quoted as they are: for the person to read, never a block. The install preview
 * lists a package's flags with each tool's name; the Tools tab lists a tool's own under it.
 */
import type { JSX } from 'react';
import type { ToolFlag } from '../../../shared/tool-scan';
import { Icon } from './Icon';
import { VisibleText } from './VisibleText';

export function ToolFlags(p: {
  flags: readonly ToolFlag[];
  /** Name the tool on each line (a list of a whole package's flags). */
  named?: boolean;
  /** The data attribute each line carries, with the flag's kind. */
  data: 'data-install-flag' | 'data-tool-flag';
  className?: string;
}): JSX.Element | null {
  if (p.flags.length === 0) return null;
  return (
    <ul className={p.className} aria-label="What the scan noticed">
      {p.flags.map((f, i) => (
        <li key={i} className="flex gap-1.5" {...{ [p.data]: f.kind }}>
          <Icon name="alert" size={p.named ? 13 : 11} className="mt-0.5 shrink-0 text-warn" />
          <span className="min-w-0">
            {p.named && (
              <>
                <code className="font-mono">
                  <VisibleText text={f.tool} name />
                </code>
                :{' '}
              </>
            )}
            <VisibleText text={f.message} />
            {f.excerpt && (
              <span className="text-fg-muted">
                : “<VisibleText text={f.excerpt} />”
              </span>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}
