/** Every keyboard shortcut, read from the one table (shortcuts.ts): the help dialog and Settings show it. */
import type { JSX } from 'react';
import { Kbd } from '../components/Kbd';
import { modLabel } from '../lib/platform';
import { SHORTCUTS } from './shortcuts';

export function ShortcutTable({ label }: { label?: string }): JSX.Element {
  return (
    <table className="w-full text-[13px]" aria-label={label}>
      <tbody>
        {SHORTCUTS.map((s) => (
          <tr key={s.label} className="border-b border-line last:border-0">
            <td className="py-1.5 pr-4 text-fg-muted">{s.label}</td>
            <td className="py-1.5 text-right whitespace-nowrap">
              <span className="inline-flex gap-1">
                {s.keys.map((k) => (
                  <Kbd key={k}>{k === 'Mod' ? modLabel() : k}</Kbd>
                ))}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
