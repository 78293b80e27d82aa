/**
 * The Settings view: a dialog with its sections listed on the left (Models, Assistant,
 * Appearance). Opened from the toolbar's gear, by Mod+, and from the "Connect a model" card and
 * the composer's model picker; Escape or Close closes it.
 */
import type { JSX } from 'react';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Icon, type IconName } from '../../components/Icon';
import { closeSettings, setSettingsSection, useUi, type SettingsSection } from '../../stores/ui';
import { AppearanceSection } from './AppearanceSection';
import { AssistantSection } from './AssistantSection';
import { ModelsSection } from './ModelsSection';

const SECTIONS: Array<{ key: SettingsSection; label: string; icon: IconName }> = [
  { key: 'models', label: 'Models', icon: 'sparkle' },
  { key: 'assistant', label: 'Assistant', icon: 'wrench' },
  { key: 'appearance', label: 'Appearance', icon: 'sun' },
];

export function SettingsDialog(): JSX.Element | null {
  const view = useUi((s) => s.settings);
  if (!view) return null;
  return (
    <Dialog title="Settings" onClose={closeSettings} width="w-[760px]" footer={<Button onClick={closeSettings}>Close</Button>}>
      <div className="flex min-h-[420px] gap-5">
        <nav aria-label="Settings sections" className="w-40 shrink-0">
          <ul className="space-y-0.5">
            {SECTIONS.map((s) => (
              <li key={s.key}>
                <button
                  type="button"
                  aria-current={view.section === s.key ? 'page' : undefined}
                  onClick={() => setSettingsSection(s.key)}
                  className={`flex h-7 w-full items-center gap-2 rounded-md px-2 text-left text-[13px] ${
                    view.section === s.key ? 'bg-emphasis font-medium text-fg' : 'text-fg-muted hover:bg-muted hover:text-fg'
                  }`}
                >
                  <Icon name={s.icon} size={14} />
                  {s.label}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0 flex-1">
          {view.section === 'models' && <ModelsSection startAdding={view.addModel} />}
          {view.section === 'assistant' && <AssistantSection />}
          {view.section === 'appearance' && <AppearanceSection />}
        </div>
      </div>
    </Dialog>
  );
}
