/**
 * The app window, locked down: context isolation, sandbox, no node in the page, a strict CSP in
 * production, navigation and window.open denied (external links open in the browser only for an
 * allow-list), and every permission request (camera, notifications, …) refused.
 */
import { BrowserWindow, session, shell } from 'electron';
import path from 'node:path';
import { appHostCsp } from '../../shared/csp';
import { APP_FRAME_SCHEME, isAppFrameUrl } from './app-frames';
import { isRendererUrl, rendererHref, type RendererTarget } from './app-url';

/** Sites a link in the app may open in the user's browser. */
const EXTERNAL_ALLOW = [
  /^https:\/\/github\.com\//,
  /^https:\/\/modelcontextprotocol\.io\//,
  /^https:\/\/www\.electronjs\.org\//,
];

export function rendererUrl(): RendererTarget {
  const dev = process.env.ELECTRON_RENDERER_URL;
  if (dev) return { kind: 'dev', url: dev };
  return { kind: 'file', file: path.resolve(import.meta.dirname, '../renderer/index.html') };
}

/** Our own page and nothing else: the exact renderer file, or the dev server's exact origin. */
export function isAppUrl(url: string): boolean {
  return isRendererUrl(url, rendererUrl());
}

export function secureSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  if (rendererUrl().kind === 'file') {
    ses.webRequest.onHeadersReceived((details, callback) => {
      // An MCP App's page keeps its own policy (app-frames.ts); a second one would only add to it.
      if (details.url.startsWith(`${APP_FRAME_SCHEME}:`)) return callback({});
      callback({
        responseHeaders: {
          ...details.responseHeaders,
          'Content-Security-Policy': [appHostCsp(`${APP_FRAME_SCHEME}:`)],
        },
      });
    });
  }
}

export function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 760,
    minHeight: 480,
    show: false,
    title: 'Plugboard',
    backgroundColor: '#0b0b0d',
    webPreferences: {
      preload: path.join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      spellcheck: false,
      // Middle-click would open links in new windows; window.open is denied anyway.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  win.webContents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (EXTERNAL_ALLOW.some((re) => re.test(url))) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
  // An MCP App's frame stays on its page: it may not navigate itself (or be sent) anywhere else.
  win.webContents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame && !isAppFrameUrl(event.url)) event.preventDefault();
  });
  // The very URL isAppUrl trusts (loadFile would build its own from the path).
  void win.loadURL(rendererHref(rendererUrl()));
  return win;
}
