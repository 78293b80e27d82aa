/** Short notices: the outcome of an action that has no place of its own on screen. */
import { create } from 'zustand';

export interface Toast {
  id: number;
  kind: 'info' | 'error';
  text: string;
}

export const useToasts = create<{ toasts: Toast[] }>()(() => ({ toasts: [] }));

let nextId = 1;

function push(kind: Toast['kind'], text: string): void {
  const id = nextId++;
  // Keep the newest few: a burst of failures should not cover the window.
  useToasts.setState((s) => ({ toasts: [...s.toasts.slice(-3), { id, kind, text }] }));
  setTimeout(() => dismissToast(id), kind === 'error' ? 9000 : 3500);
}

export function dismissToast(id: number): void {
  useToasts.setState((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
}

export function toastError(text: string): void {
  push('error', text);
}

export function toastInfo(text: string): void {
  push('info', text);
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
