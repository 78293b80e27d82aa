/**
 * Binds the contract to Electron IPC. One `handle()` helper: it refuses a sender that is not the
 * app's own top frame, refuses a command the contract does not declare, and checks the input
 * against the command's schema before the backend sees it. Events go to the window as they come.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { IPC_EVENT, IPC_INVOKE, isCommandName, parseInput } from '../../shared/contract';
import type { IDisposable } from '../../shared/lifecycle';
import type { Backend } from '../service';

export function bindContract(
  backend: Backend,
  window: () => BrowserWindow | null,
  isTrustedUrl: (url: string) => boolean,
): IDisposable {
  handle(IPC_INVOKE, window, isTrustedUrl, async (name: unknown, input: unknown) => {
    if (!isCommandName(name)) throw new Error(`unknown command "${String(name)}"`);
    const parsed = parseInput(name, input);
    if (!parsed.ok) throw new Error(parsed.message);
    return backend.invoke(name, parsed.value as never);
  });
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
