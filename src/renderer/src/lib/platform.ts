/** Keyboard conventions differ by OS; shortcut labels and checks follow the platform. */
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';

export const isMac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** The primary modifier: ⌘ on macOS, Ctrl elsewhere. */
export function hasMod(e: KeyboardEvent | ReactKeyboardEvent): boolean {
  return isMac ? e.metaKey : e.ctrlKey;
}

export function modLabel(): string {
  return isMac ? '⌘' : 'Ctrl';
}

export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
}
