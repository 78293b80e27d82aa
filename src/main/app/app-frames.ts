/**
 * The frame origin of the desktop app: the `plugboard-app:` scheme, registered as privileged
 * (`standard`, so `plugboard-app://frame` is an origin with a host, unlike `file:`; `secure`, so
 * an App gets the secure context a page on https would; nothing else: no `bypassCSP`, no fetch or
 * CORS support, no service workers). Its handler serves MCP App pages staged by the service
 * (service/app-frames.ts) at `plugboard-app://frame/app/<name>` with their own policy, and nothing
 * else. The window's page is `file://…/index.html`, another origin, and frames the page sandboxed
 * without `allow-same-origin`, so the App runs in an opaque origin: no preload (it runs in the
 * main frame only), no `window.plugboard`, and IPC refuses any frame but the main one
 * (ipc/handle.ts). This file is type-checked against Electron's typings; the Electron binary
 * cannot run on the machines that test Plugboard, so the same pages and policies are tested
 * through `plugboard serve` in Chromium instead (see docs/ARCHITECTURE.md).
 */
import { protocol } from 'electron';
import { pageHeaders, type AppFrames } from '../service';

export const APP_FRAME_SCHEME = 'plugboard-app';
/** Where pages are served: every App page's URL starts with this. */
export const APP_FRAME_BASE = `${APP_FRAME_SCHEME}://frame`;

/** Must run before the app is ready (Electron reads privileged schemes once, at start). */
export function registerAppFrameScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_FRAME_SCHEME, privileges: { standard: true, secure: true } }]);
}

/** Serves staged pages on the scheme (once the app is ready) and tells the service where they are. */
export function serveAppFrames(frames: AppFrames): void {
  protocol.handle(APP_FRAME_SCHEME, (req) => {
    const notFound = new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    if (req.method !== 'GET') return notFound;
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return notFound;
    }
    const page = url.host === 'frame' ? frames.take(url.pathname) : undefined;
    return page ? new Response(page.html, { status: 200, headers: pageHeaders(page) }) : notFound;
  });
  frames.serveAt(APP_FRAME_BASE);
}

/** Whether a frame's navigation stays on the frame origin (App pages may not go elsewhere). */
export function isAppFrameUrl(url: string): boolean {
  return url.startsWith(`${APP_FRAME_BASE}/app/`);
}
