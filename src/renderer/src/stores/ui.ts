/**
 * UI state that is not data: theme, which panels are open, which dialog is up. The theme choice
 * and panel layout persist across launches (localStorage: they are preferences, not secrets).
 */
import { create } from 'zustand';
import type { PaletteEntry } from '../../../shared/contract';

export type ThemePref = 'system' | 'light' | 'dark';

interface Persisted {
  theme: ThemePref;
  panelOpen: boolean;
  sidebarOpen: boolean;
}

interface UiState extends Persisted {
  /** The theme in effect once "system" is resolved against the OS. */
  resolvedTheme: 'light' | 'dark';
  helpOpen: boolean;
  /** The Settings view, when open: the section shown, and whether it starts adding a model. */
  settings: SettingsView | null;
  /** A tool's form opened from outside the composer (a suggestion on the "Connect a model" card). */
  toolForm: PaletteEntry | null;
  /** Bumped to ask the composer to take focus (after closing a dialog, choosing a conversation). */
  focusComposerTick: number;
  /** Bumped when the person opens the plugin panel: focus moves into it (not when it opens with the app). */
  focusPanelTick: number;
}

export type SettingsSection =
  'models' | 'assistant' | 'approvals' | 'appearance' | 'shortcuts' | 'data' | 'sandbox' | 'other-apps';

export interface SettingsView {
  section: SettingsSection;
  /** Open the "add a model" form at once (from "Connect a model"). */
  addModel: boolean;
}

const KEY = 'plugboard.ui';
const media = window.matchMedia('(prefers-color-scheme: dark)');

function load(): Persisted {
  const fallback: Persisted = { theme: 'system', panelOpen: false, sidebarOpen: true };
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (typeof raw !== 'object' || raw === null) return fallback;
    const r = raw as Record<string, unknown>;
    return {
      theme: r.theme === 'light' || r.theme === 'dark' || r.theme === 'system' ? r.theme : fallback.theme,
      panelOpen: typeof r.panelOpen === 'boolean' ? r.panelOpen : fallback.panelOpen,
      sidebarOpen: typeof r.sidebarOpen === 'boolean' ? r.sidebarOpen : fallback.sidebarOpen,
    };
  } catch {
    return fallback;
  }
}

function resolve(theme: ThemePref): 'light' | 'dark' {
  return theme === 'system' ? (media.matches ? 'dark' : 'light') : theme;
}

const initial = load();

export const useUi = create<UiState>()(() => ({
  ...initial,
  resolvedTheme: resolve(initial.theme),
  helpOpen: false,
  settings: null,
  toolForm: null,
  focusComposerTick: 0,
  focusPanelTick: 0,
}));

export function setTheme(theme: ThemePref): void {
  useUi.setState({ theme, resolvedTheme: resolve(theme) });
}

/** System, light, dark, and round again. */
export function cycleTheme(): void {
  const order: ThemePref[] = ['system', 'light', 'dark'];
  setTheme(order[(order.indexOf(useUi.getState().theme) + 1) % order.length] ?? 'system');
}

export function togglePanel(open?: boolean): void {
  useUi.setState((s) => {
    const panelOpen = open ?? !s.panelOpen;
    return { panelOpen, focusPanelTick: panelOpen && !s.panelOpen ? s.focusPanelTick + 1 : s.focusPanelTick };
  });
}

export function toggleSidebar(open?: boolean): void {
  useUi.setState((s) => ({ sidebarOpen: open ?? !s.sidebarOpen }));
}

export function setHelpOpen(helpOpen: boolean): void {
  useUi.setState({ helpOpen });
}

export function openSettings(view: Partial<SettingsView> = {}): void {
  useUi.setState({ settings: { section: view.section ?? 'models', addModel: view.addModel ?? false } });
}

export function closeSettings(): void {
  useUi.setState({ settings: null });
}

export function setSettingsSection(section: SettingsSection): void {
  useUi.setState((s) => (s.settings ? { settings: { ...s.settings, section, addModel: false } } : {}));
}

export function openToolForm(entry: PaletteEntry | null): void {
  useUi.setState({ toolForm: entry });
}

/** Asks the composer to take focus (after closing a dialog, choosing a conversation). */
export function focusComposer(): void {
  useUi.setState((s) => ({ focusComposerTick: s.focusComposerTick + 1 }));
}

/** Keeps <html> in step with the theme and saves preferences; called once at start. */
export function startUi(): void {
  const apply = (theme: 'light' | 'dark'): void => {
    document.documentElement.classList.toggle('dark', theme === 'dark');
  };
  apply(useUi.getState().resolvedTheme);
  media.addEventListener('change', () => {
    const s = useUi.getState();
    if (s.theme === 'system') useUi.setState({ resolvedTheme: resolve('system') });
  });
  useUi.subscribe((s, prev) => {
    if (s.resolvedTheme !== prev.resolvedTheme) apply(s.resolvedTheme);
    if (s.theme !== prev.theme || s.panelOpen !== prev.panelOpen || s.sidebarOpen !== prev.sidebarOpen) {
      try {
        localStorage.setItem(
          KEY,
          JSON.stringify({ theme: s.theme, panelOpen: s.panelOpen, sidebarOpen: s.sidebarOpen }),
        );
      } catch {
        // Preferences are a convenience; failing to save them is not worth interrupting anyone.
      }
    }
  });
}
