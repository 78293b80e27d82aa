/** Settings → Shortcuts: every keyboard shortcut, from the same table the keys are handled by. */
import type { JSX } from 'react';
import { ShortcutTable } from '../../app/ShortcutTable';
import { Kbd } from '../../components/Kbd';
import { SectionHead } from './SectionHead';

export function ShortcutsSection(): JSX.Element {
  return (
    <section aria-label="Shortcuts" className="space-y-3">
      <SectionHead title="Keyboard shortcuts">
        Everything in Plugboard works from the keyboard. <Kbd>?</Kbd> shows this list anywhere outside a text field.
      </SectionHead>
      <ShortcutTable label="Keyboard shortcuts" />
    </section>
  );
}
