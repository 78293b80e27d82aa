/**
 * The Settings view: a dialog with its sections listed at the side (above, wrapped, when the
 * window is narrow); it keeps one size from section to section, so nothing jumps. The list is one Tab stop: the arrow keys, Home and End move between sections and
 * show each at once. Opened from the toolbar's gear, by Mod+, and from the "Connect a model" card
 * and the composer's model picker; Escape or Close closes it.
 */
import { useRef, type JSX, type KeyboardEvent } from 'react';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Icon, type IconName } from '../../components/Icon';
import { closeSettings, setSettingsSection, useUi, type SettingsSection } from '../../stores/ui';
import { AppearanceSection } from './AppearanceSection';
import { ApprovalsSection } from './ApprovalsSection';
import { AssistantSection } from './AssistantSection';
import { DataSection } from './DataSection';
import { ModelsSection } from './ModelsSection';
import { OtherAppsSection } from './OtherAppsSection';
import { SandboxSection } from './SandboxSection';
import { ShortcutsSection } from './ShortcutsSection';

const SECTIONS: Array<{ key: SettingsSection; label: string; icon: IconName }> = [
  { key: 'models', label: 'Models', icon: 'sparkle' },
  { key: 'assistant', label: 'Assistant', icon: 'wrench' },
  { key: 'approvals', label: 'Approvals', icon: 'check' },
  { key: 'appearance', label: 'Appearance', icon: 'sun' },
  { key: 'shortcuts', label: 'Shortcuts', icon: 'keyboard' },
  { key: 'other-apps', label: 'Other apps', icon: 'plug' },
  { key: 'data', label: 'Data folder', icon: 'folder' },
  { key: 'sandbox', label: 'Sandbox', icon: 'shield' },
];

function Section({ section, addModel }: { section: SettingsSection; addModel: boolean }): JSX.Element {
  switch (section) {
    case 'models':
      return <ModelsSection startAdding={addModel} />;
    case 'assistant':
      return <AssistantSection />;
    case 'approvals':
      return <ApprovalsSection />;
    case 'appearance':
      return <AppearanceSection />;
    case 'shortcuts':
      return <ShortcutsSection />;
    case 'data':
      return <DataSection />;
    case 'sandbox':
      return <SandboxSection />;
    case 'other-apps':
      return <OtherAppsSection />;
  }
}

export function SettingsDialog(): JSX.Element | null {
  const view = useUi((s) => s.settings);
  const buttons = useRef(new Map<SettingsSection, HTMLButtonElement>());
  if (!view) return null;

  const onKey = (e: KeyboardEvent): void => {
    const i = SECTIONS.findIndex((s) => s.key === view.section);
    const n = SECTIONS.length;
    const next = {
      ArrowDown: (i + 1) % n,
      ArrowRight: (i + 1) % n,
      ArrowUp: (i - 1 + n) % n,
      ArrowLeft: (i - 1 + n) % n,
      Home: 0,
      End: n - 1,
    }[e.key];
    const to = next === undefined ? undefined : SECTIONS[next];
    if (!to) return;
    e.preventDefault();
    setSettingsSection(to.key);
    buttons.current.get(to.key)?.focus();
  };

  return (
    <Dialog
      title="Settings"
      onClose={closeSettings}
      width="w-[800px]"
      // One height for every section: the dialog does not jump as the person moves between them.
      height="h-[min(720px,calc(100vh-48px))]"
      footer={<Button onClick={closeSettings}>Close</Button>}
    >
      <div className="flex flex-col gap-4 sm:min-h-[520px] sm:flex-row sm:gap-5">
        <nav aria-label="Settings sections" className="shrink-0 sm:w-40">
          <ul className="flex flex-wrap gap-0.5 sm:flex-col" onKeyDown={onKey}>
            {SECTIONS.map((s) => {
              const current = view.section === s.key;
              return (
                <li key={s.key} className="shrink-0">
                  <button
                    type="button"
                    ref={(el) => {
                      if (el) buttons.current.set(s.key, el);
                      else buttons.current.delete(s.key);
                    }}
                    tabIndex={current ? 0 : -1}
                    aria-current={current ? 'page' : undefined}
                    onClick={() => setSettingsSection(s.key)}
                    className={`flex h-7 w-full items-center gap-2 rounded-md px-2 text-left text-[13px] whitespace-nowrap ${
                      current ? 'bg-emphasis font-medium text-fg' : 'text-fg-muted hover:bg-muted hover:text-fg'
                    }`}
                  >
                    <Icon name={s.icon} size={14} />
                    {s.label}
                  </button>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="min-w-0 flex-1">
          <Section section={view.section} addModel={view.addModel} />
        </div>
      </div>
    </Dialog>
  );
}
