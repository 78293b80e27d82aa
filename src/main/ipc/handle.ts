/**
 * Binds the contract to Electron IPC. One `handle()` helper: it refuses a sender that is not the
 * app's own top frame; the backend's `answer` refuses a command the contract does not declare or
 * an input its schema does not pass, with the same failure the WebSocket server sends. Events go
 * to the window as they come.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { IPC_EVENT, IPC_INVOKE } from '../../shared/contract';
import type { IDisposable } from '../../shared/lifecycle';
import type { Backend } from '../service';

export function bindContract(
  backend: Backend,
  window: () => BrowserWindow | null,
  isTrustedUrl: (url: string) => boolean,
): IDisposable {
  // An Answer, never a throw: Electron would turn a thrown error into other words than the
  // WebSocket server sends, and drop its code.
  handle(IPC_INVOKE, window, isTrustedUrl, (name: unknown, input: unknown) => backend.answer(name, input));
  const events = backend.onDidEvent((e) => {
    const w = window();
    if (w && !w.isDestroyed()) w.webContents.send(IPC_EVENT, e.name, e.payload);
  });
  return {
    dispose() {
      ipcMain.removeHandler(IPC_INVOKE);
      events.dispose();
    },
  };
}

function handle(
  channel: string,
  window: () => BrowserWindow | null,
  isTrustedUrl: (url: string) => boolean,
  fn: (...args: unknown[]) => Promise<unknown>,
): void {
  ipcMain.handle(channel, (event: IpcMainInvokeEvent, ...args: unknown[]) => {
    const w = window();
    const frame = event.senderFrame;
    if (
      !w ||
      event.sender !== w.webContents ||
      !frame ||
      frame !== w.webContents.mainFrame ||
      !isTrustedUrl(frame.url)
    ) {
      throw new Error('refused: the request did not come from the Plugboard window');
    }
    return fn(...args);
  });
}
