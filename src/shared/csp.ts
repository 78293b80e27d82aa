/**
 * The production Content-Security-Policy, the same for the Electron window (response header)
 * and the web server: scripts and styles from the app only (inline styles allowed: React style
 * attributes), the WebSocket back to the server, nothing framed, nothing posted elsewhere.
 */
export const PRODUCTION_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self' ws: wss:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
