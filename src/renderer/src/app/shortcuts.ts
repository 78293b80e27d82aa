/**
 * The app's keyboard shortcuts, in one table: the handler and the help dialog both read it, so
 * the help can never list a shortcut that does not exist.
 */
import { cancelRunning, createConversation, stepConversation } from '../stores/chat/actions';
import { openInstallPicker } from '../stores/install';
import { cycleTheme, openSettings, setHelpOpen, togglePanel, toggleSidebar } from '../stores/ui';
import { hasMod, isTextField } from '../lib/platform';

export interface Shortcut {
  /** Keys as shown: "Mod" becomes ⌘ or Ctrl. */
  keys: string[];
  label: string;
  match?: (e: KeyboardEvent) => boolean;
  run?: () => void;
}

const key = (e: KeyboardEvent, k: string): boolean => e.key.toLowerCase() === k;

export const SHORTCUTS: Shortcut[] = [
  { keys: ['Enter'], label: 'Send the message' },
  { keys: ['Shift', 'Enter'], label: 'New line in the message' },
  { keys: ['/'], label: 'Tools and commands (at the start of a message)' },
  { keys: ['↑', '↓', 'Enter'], label: 'Choose in the tool list' },
  { keys: ['Tab'], label: 'Complete the tool name (in the tool list)' },
  { keys: ['Esc'], label: 'Close the tool list or a dialog' },
  {
    keys: ['Mod', 'Shift', 'P'],
    label: 'Show or hide plugins',
    match: (e) => hasMod(e) && e.shiftKey && key(e, 'p'),
    run: () => togglePanel(),
  },
  {
    keys: ['Mod', 'B'],
    label: 'Show or hide conversations',
    match: (e) => hasMod(e) && !e.shiftKey && key(e, 'b'),
    run: () => toggleSidebar(),
  },
  {
    keys: ['Mod', 'Shift', 'O'],
    label: 'New conversation',
    match: (e) => hasMod(e) && e.shiftKey && key(e, 'o'),
    run: () => void createConversation(),
  },
  {
    keys: ['Mod', 'I'],
    label: 'Install a plugin from a file or folder',
    match: (e) => hasMod(e) && !e.shiftKey && !e.altKey && key(e, 'i'),
    run: () => openInstallPicker(),
  },
  { keys: ['↑', '↓'], label: 'Move between conversations (in the list)' },
  { keys: ['F2'], label: 'Rename the focused conversation' },
  { keys: ['Delete'], label: 'Delete the focused conversation' },
  {
    keys: ['Alt', '↑'],
    label: 'Previous conversation',
    match: (e) => e.altKey && !hasMod(e) && e.key === 'ArrowUp',
    run: () => stepConversation(-1),
  },
  {
    keys: ['Alt', '↓'],
    label: 'Next conversation',
    match: (e) => e.altKey && !hasMod(e) && e.key === 'ArrowDown',
    run: () => stepConversation(1),
  },
  {
    keys: ['Mod', '.'],
    label: 'Stop the running turn',
    match: (e) => hasMod(e) && e.key === '.',
    run: () => void cancelRunning(),
  },
  {
    keys: ['Mod', ','],
    label: 'Settings',
    match: (e) => hasMod(e) && !e.shiftKey && e.key === ',',
    run: () => openSettings(),
  },
  {
    keys: ['Mod', 'Shift', 'L'],
    label: 'Switch theme (system, light, dark)',
    match: (e) => hasMod(e) && e.shiftKey && key(e, 'l'),
    run: () => cycleTheme(),
  },
  {
    keys: ['?'],
    label: 'Help and keyboard shortcuts',
    match: (e) => e.key === '?' && !hasMod(e) && !isTextField(e.target),
    run: () => setHelpOpen(true),
  },
  {
    keys: ['Mod', '/'],
    label: 'Help and keyboard shortcuts (anywhere)',
    match: (e) => hasMod(e) && e.key === '/',
    run: () => setHelpOpen(true),
  },
  {
    keys: ['F1'],
    label: 'Help',
    match: (e) => e.key === 'F1' && !hasMod(e),
    run: () => setHelpOpen(true),
  },
];

/** Installs the global handler; returns its removal. */
export function installShortcuts(): () => void {
  const onKey = (e: KeyboardEvent): void => {
    if (e.defaultPrevented || e.isComposing) return;
    for (const s of SHORTCUTS) {
      if (s.match?.(e) && s.run) {
        e.preventDefault();
        s.run();
        return;
      }
    }
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}
