/**
 * The production Content-Security-Policy, the same for the Electron window and the web server:
 * scripts and styles from the app only (React sets style properties through the CSSOM, which CSP
 * does not restrict, so no 'unsafe-inline'), connections only back to the origin (CSP 3 'self'
 * covers the same-origin WebSocket), nothing framed, nothing posted elsewhere. The renderer's
 * index.html carries the same policy as a meta tag, for file:// pages that get no headers.
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
