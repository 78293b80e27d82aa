/**
 * Arrow keys inside a list that is one Tab stop (issue 12): Up and Down move to the previous and
 * next item, Home and End to the ends. Items are the elements marked `data-roving-item` inside
 * the list element; only one of them has tabIndex 0 (the list's choice), the rest -1.
 */
import type { KeyboardEvent } from 'react';

export function moveInList(e: KeyboardEvent<HTMLElement>): void {
  if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key) || e.altKey || e.ctrlKey || e.metaKey) return;
  const list = e.currentTarget.closest('[data-roving-list]');
  if (!list) return;
  const items = [...list.querySelectorAll<HTMLElement>('[data-roving-item]')];
  const at = items.indexOf(e.currentTarget);
  const to = e.key === 'Home' ? 0 : e.key === 'End' ? items.length - 1 : at + (e.key === 'ArrowDown' ? 1 : -1);
  const next = items[to];
  if (!next || next === e.currentTarget) return;
  e.preventDefault();
  next.focus();
}
