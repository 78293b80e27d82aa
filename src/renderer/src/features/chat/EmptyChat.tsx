/** What an empty conversation shows: how to start, in three lines. */
import type { JSX } from 'react';
import { Kbd } from '../../components/Kbd';
import { modLabel } from '../../lib/platform';

export function EmptyChat(): JSX.Element {
  return (
    <div className="flex min-h-0 flex-1 items-center justify-center p-8">
      <div className="max-w-sm text-center">
        <h2 className="text-[15px] font-semibold text-fg">Talk to your plugins</h2>
        <ul className="mt-3 space-y-1.5 text-left text-[12.5px] text-fg-muted">
          <li className="flex items-center gap-2">
            <Kbd>/</Kbd>
            <span>lists the tools you can run, with a form for their arguments</span>
          </li>
          <li className="flex items-center gap-2">
            <code className="rounded bg-muted px-1 font-mono text-[11.5px]">/plugin:tool key=value</code>
            <span>runs one directly</span>
          </li>
          <li className="flex items-center gap-2">
            <Kbd>{modLabel()}</Kbd>
            <Kbd>⇧</Kbd>
            <Kbd>P</Kbd>
            <span>shows your plugins and their health</span>
          </li>
        </ul>
        <p className="mt-4 text-[12px] text-fg-subtle">
          Install a plugin with <Kbd>{modLabel()}</Kbd> <Kbd>I</Kbd>, or drop its folder, .zip, .mcpb or .dxt file
          anywhere.
        </p>
      </div>
    </div>
  );
}
