/**
 * Signing in to a remote MCP server from the screen. In a browser (the web UI) a tab is opened
 * at once, in the click, so no popup blocker stops it, and sent to the authorization page once
 * the server knows it; the desktop app opens that page in the system browser itself. The sign-in
 * ends when the browser comes back: the plugin's detail is read again then (plugins.changed).
 */
import { getApi } from '../api';
import { loadDetail, usePluginDetail } from './plugin-detail';
import { useAppInfo } from './app-info';
import { runOp } from './ops';
import { errorText, toastError } from './toasts';

export async function signIn(id: string): Promise<void> {
  const inBrowser = useAppInfo.getState().info?.transport !== 'ipc';
  const tab = inBrowser ? window.open('about:blank', '_blank') : null;
  if (tab) tab.opener = null;
  try {
    const r = await getApi().invoke('plugins.signIn', { id });
    if (!r.ok) {
      tab?.close();
      toastError(`Sign in to ${id}: ${r.message}`);
      return;
    }
    if (r.url && !r.opened) {
      if (tab) tab.location.href = r.url;
      else window.open(r.url, '_blank', 'noopener');
    } else tab?.close();
  } catch (e) {
    tab?.close();
    toastError(`Sign in to ${id}: ${errorText(e)}`);
  }
  if (usePluginDetail.getState().expanded === id) void loadDetail(id);
}

export async function signOut(id: string): Promise<void> {
  await runOp(() => getApi().invoke('plugins.signOut', { id }), `Sign out of ${id}`, `Signed out of ${id}`);
  if (usePluginDetail.getState().expanded === id) void loadDetail(id);
}
