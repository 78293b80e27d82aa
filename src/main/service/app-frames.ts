/**
 * MCP App pages waiting to be framed. `apps.open` stages a page here under a random name and
 * hands the screen its URL on the frame origin, which is never the page's own: a second loopback
 * port in `plugboard serve` (server/app-frames.ts), the privileged `plugboard-app:` scheme in the
 * desktop app (app/app-frames.ts). Both serve a staged page with its own Content-Security-Policy
 * and nothing else. A name is 128 random bits, so one App cannot guess another's page; pages are
 * dropped after a while and when too many are kept.
 */
import { randomBytes } from 'node:crypto';

export interface StagedPage {
  html: string;
  /** The page's Content-Security-Policy header (shared/app-csp.ts). */
  csp: string;
  at: number;
}

/** How long a staged page may be loaded (a frame loads it at once; a reload stages it again). */
const KEEP_MS = 10 * 60_000;
const MAX_PAGES = 64;

export class AppFrames {
  private readonly pages = new Map<string, StagedPage>();
  /** Where pages are served (`http://127.0.0.1:43121`, `plugboard-app://frame`); unset: nowhere. */
  private base: string | null = null;
  /** Plugboard's own origins, which no App's policy may name (the page's and the frame origin). */
  private own: string[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** The transport that serves pages says where; `own` adds the page's origin(s) it serves from. */
  serveAt(base: string, own: readonly string[] = []): void {
    this.base = base.replace(/\/$/, '');
    this.own = [...new Set([...own, new URL(this.base).origin])];
  }

  get served(): boolean {
    return this.base !== null;
  }

  get ownOrigins(): readonly string[] {
    return this.own;
  }

  /** Keeps a page; its URL on the frame origin. */
  stage(html: string, csp: string): string {
    if (!this.base) throw new Error('no frame origin serves App pages here');
    this.prune();
    const name = randomBytes(16).toString('hex');
    this.pages.set(name, { html, csp, at: this.now() });
    return `${this.base}/app/${name}`;
  }

  /** A staged page by the path it is asked for (`/app/<name>`), if it is still kept. */
  take(pathname: string): StagedPage | undefined {
    const m = /^\/app\/([0-9a-f]{32})$/.exec(pathname);
    if (!m) return undefined;
    const page = this.pages.get(m[1] as string);
    if (!page || this.now() - page.at > KEEP_MS) return undefined;
    return page;
  }

  private prune(): void {
    const t = this.now();
    for (const [k, p] of this.pages) if (t - p.at > KEEP_MS) this.pages.delete(k);
    while (this.pages.size >= MAX_PAGES) this.pages.delete(this.pages.keys().next().value as string);
  }
}

/** The headers every staged page is served with, wherever it is served. */
export function pageHeaders(page: StagedPage): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': page.csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}
