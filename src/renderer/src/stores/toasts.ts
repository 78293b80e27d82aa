/** Short notices: the outcome of an action that has no place of its own on screen. */
import { create } from 'zustand';

export interface Toast {
  id: number;
  kind: 'info' | 'error';
  text: string;
}

interface ToastState {
  toasts: Toast[];
  push(kind: Toast['kind'], text: string): void;
  dismiss(id: number): void;
}

let nextId = 1;

export const useToasts = create<ToastState>()((set, get) => ({
  toasts: [],
  push(kind, text) {
    const id = nextId++;
    // Keep the newest few: a burst of failures should not cover the window.
    set((s) => ({ toasts: [...s.toasts.slice(-3), { id, kind, text }] }));
    setTimeout(() => get().dismiss(id), kind === 'error' ? 9000 : 3500);
  },
  dismiss(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
}));

export function toastError(text: string): void {
  useToasts.getState().push('error', text);
}

export function toastInfo(text: string): void {
  useToasts.getState().push('info', text);
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
