/** The top bar: panel toggles, the open conversation's title, Install plugin…, theme, settings and help. */
import { useMemo, type JSX } from 'react';
import { IconButton } from '../components/Button';
import { Icon, type IconName } from '../components/Icon';
import { isMac as isMacLike, modLabel } from '../lib/platform';
import { useChat } from '../stores/chat/state';
import { usePlugins } from '../stores/plugins';
import { cycleTheme, openSettings, setHelpOpen, togglePanel, toggleSidebar, useUi, type ThemePref } from '../stores/ui';
import { InstallButton } from '../features/install/InstallPicker';
import { isTrouble } from '../features/plugins/health';

const themeIcon: Record<ThemePref, IconName> = { system: 'monitor', light: 'sun', dark: 'moon' };
const themeName: Record<ThemePref, string> = { system: 'system', light: 'light', dark: 'dark' };

function PluginsToggle(): JSX.Element {
  const open = useUi((s) => s.panelOpen);
  const byId = usePlugins((s) => s.byId);
  const trouble = useMemo(() => Object.values(byId).filter((p) => isTrouble(p.health.state) || p.error).length, [byId]);
  return (
    <button
      type="button"
      onClick={() => togglePanel()}
      aria-label="Plugins"
      aria-pressed={open}
      aria-controls={open ? 'plugin-panel' : undefined}
      aria-describedby={trouble > 0 ? 'plugins-trouble' : undefined}
      title={`Plugins (${modLabel()}+Shift+P)`}
      className={`relative inline-flex h-7 items-center gap-1.5 rounded-md px-2 text-[13px] font-medium transition-colors ${
        open ? 'bg-muted text-fg' : 'text-fg-muted hover:bg-muted hover:text-fg'
      }`}
    >
      <Icon name="plug" size={15} />
      Plugins
      {trouble > 0 && (
        <>
          <span className="h-1.5 w-1.5 rounded-full bg-bad" aria-hidden="true" />
          <span id="plugins-trouble" className="sr-only">{`${trouble} need attention`}</span>
        </>
      )}
    </button>
  );
}

export function Toolbar(): JSX.Element {
  const sidebarOpen = useUi((s) => s.sidebarOpen);
  const theme = useUi((s) => s.theme);
  const title = useChat((s) => (s.activeId ? s.list.find((c) => c.id === s.activeId)?.title : undefined));
  return (
    <header className="flex h-10 shrink-0 items-center gap-1 border-b border-line bg-bg px-2">
      <IconButton
        icon="sidebar"
        label={sidebarOpen ? 'Hide conversations' : 'Show conversations'}
        aria-expanded={sidebarOpen}
        onClick={() => toggleSidebar()}
      />
      <span className="ml-1 flex items-center gap-1.5 text-[13px] font-semibold text-fg">
        <span className="grid h-5 w-5 place-items-center rounded-md bg-fg text-bg" aria-hidden="true">
          <Icon name="plug" size={12} />
        </span>
        Plugboard
      </span>
      {title !== undefined && (
        <>
          <span className="mx-1.5 text-fg-subtle" aria-hidden="true">
            /
          </span>
          <span className="min-w-0 truncate text-[13px] text-fg-muted">{title || 'Untitled'}</span>
        </>
      )}
      <span className="flex-1" />
      <InstallButton />
      <span className="mx-1 h-4 w-px bg-line" aria-hidden="true" />
      <IconButton
        icon={themeIcon[theme]}
        label={`Theme: ${themeName[theme]} (click to switch)`}
        onClick={() => cycleTheme()}
      />
      <IconButton icon="help" label="Help and keyboard shortcuts" onClick={() => setHelpOpen(true)} />
      <IconButton
        icon="settings"
        label={`Settings (${modLabel()}+,)`}
        aria-keyshortcuts={isMacLike ? 'Meta+,' : 'Control+,'}
        onClick={() => openSettings()}
      />
      <span className="mx-1 h-4 w-px bg-line" aria-hidden="true" />
      <PluginsToggle />
    </header>
  );
}
