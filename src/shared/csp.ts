/**
 * The production Content-Security-Policy, the same for the Electron window and the web server:
 * scripts and styles from the app only (React sets style properties through the CSSOM, which CSP
 * does not restrict, so no 'unsafe-inline'), connections only back to the origin (CSP 3 'self'
 * covers the same-origin WebSocket), nothing framed, nothing posted elsewhere. The renderer's
 * index.html carries the same policy as a meta tag, for file:// pages that get no headers, plus
 * the frames of MCP Apps (appHostCsp below).
 */
export const PRODUCTION_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The page's policy where it frames MCP Apps: the production policy, with frames allowed from the
 * frame origin only (`http://127.0.0.1:<port>` in `plugboard serve`, `plugboard-app:` in the
 * desktop app), which serves nothing but App pages. The meta tag in index.html allows any
 * loopback port and `plugboard-app:` (it cannot know the port); the header narrows it.
 */
export function appHostCsp(frameOrigin: string): string {
  return `${PRODUCTION_CSP}; frame-src ${frameOrigin}`;
}
