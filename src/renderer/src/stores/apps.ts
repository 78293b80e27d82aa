/**
 * What MCP App frames ask of the main process: an App's page staged for its frame (`apps.open`),
 * a tool call it makes (`apps.call`, decided there as a model's call is), a link opened once the
 * person agreed (the desktop app opens it in the system's browser; a browser tab opens a new tab,
 * without an opener), and a message it sends to the conversation (as the person's, once they agreed).
 */
import type { AppFrameView, AppToolResult } from '../../../shared/apps';
import type { Outcome } from '../../../shared/failures';
import { getApi, transportKind } from '../api';
import { errorText } from './toasts';
import { sendText } from './chat/actions';

type Asked<T extends object> = Outcome<T> | { ok: false; code: 'transport'; message: string };

async function asked<T extends object>(send: () => Promise<Outcome<T>>): Promise<Asked<T>> {
  try {
    return await send();
  } catch (e) {
    return { ok: false, code: 'transport', message: errorText(e) };
  }
}

export function openApp(conversationId: string, messageId: string): Promise<Asked<{ app: AppFrameView }>> {
  return asked(() => getApi().invoke('apps.open', { conversationId, messageId }));
}

/** The App's tool call: its result, or an error whose message the App gets. */
export async function callAppTool(
  conversationId: string,
  messageId: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<AppToolResult> {
  const r = await asked(() => getApi().invoke('apps.call', { conversationId, messageId, tool, args }));
  if (!r.ok) throw new Error(r.message);
  return r.result;
}

/** Whether this is a web link Plugboard would open (http or https). */
export function webLink(url: string): URL | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u : null;
  } catch {
    return null;
  }
}

/** Opens a link the person agreed to open; false when it could not be. */
export async function openAgreedLink(url: string): Promise<boolean> {
  const u = webLink(url);
  if (!u) return false;
  if (transportKind() === 'ipc') {
    const r = await asked(() => getApi().invoke('app.openLink', { url: u.href }));
    return r.ok;
  }
  // A new tab with no opener and no referrer: the page it opens cannot reach back into this one.
  // (With `noopener`, window.open answers null whether or not the tab opened.)
  window.open(u.href, '_blank', 'noopener,noreferrer');
  return true;
}

/** Sends the App's message as the person's, once they agreed. */
export function sendAgreedMessage(text: string): Promise<boolean> {
  return sendText(text);
}

export function isDesktop(): boolean {
  return transportKind() === 'ipc';
}
