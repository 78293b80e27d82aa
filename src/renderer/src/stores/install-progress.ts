/**
 * The lines of an install's package step (`npm install`, `pip install`…) as the server sends them
 * (`install.progress`), for the one install the dialog is showing: each preview or commit asks
 * under a fresh progress id, and lines for any other id are not this dialog's.
 */
import { create } from 'zustand';
import { getApi } from '../api';

/** Lines kept: the dialog shows the last few; the whole output is in the failure when it fails. */
const KEPT = 200;

export const useInstallProgress = create<{ id: string | null; lines: string[] }>()(() => ({ id: null, lines: [] }));

let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  getApi().on('install.progress', ({ progress, line }) => {
    const s = useInstallProgress.getState();
    if (progress !== s.id) return;
    const lines = s.lines.length >= KEPT ? [...s.lines.slice(1 - KEPT), line] : [...s.lines, line];
    useInstallProgress.setState({ lines });
  });
}

/** A fresh progress id for the next request, its lines starting empty. */
export function beginProgress(): string {
  listen();
  const id = (crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}`).replace(/[^a-zA-Z0-9]/g, '').slice(0, 32);
  useInstallProgress.setState({ id, lines: [] });
  return id;
}

export function endProgress(): void {
  useInstallProgress.setState({ id: null, lines: [] });
}
