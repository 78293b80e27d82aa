/**
 * The Content-Security-Policy an MCP App's page is served with, built from what its resource
 * declares (`_meta.ui.csp`), never looser: with nothing declared, the extension's restrictive
 * default (inline scripts and styles, `data:` pictures, no connections, no frames). Stricter than
 * the extension's sketch in two ways: there is no `'self'` (the frame origin serves nothing but
 * App pages, so nothing there is worth loading), and `base-uri` and `form-action` default to
 * `'none'`. A declared origin that is not a plain `scheme://host[:port]` source (a keyword, a
 * bare scheme, a quote or a `;` that would smuggle in a directive) is dropped, and so is any that
 * would reach Plugboard itself (the page's origin, the frame origin, or a wildcard port on their
 * host). Pure, so it is tested as it is.
 */
import type { AppCsp } from './apps';

/** Schemes a declared origin may name; `ws`/`wss` only make sense in `connectDomains`. */
const SCHEMES = new Set(['https:', 'http:', 'wss:', 'ws:']);

/** `scheme://host[:port]`, the host possibly `*.`-prefixed, the port possibly `*`; nothing else. */
const SOURCE = /^(https?|wss?):\/\/(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:]+\])(?::(\d{1,5}|\*))?\/?$/i;

export interface RefusedSource {
  source: string;
  why: string;
}

export interface CspSources {
  /** The sources kept, per list, in the order declared. */
  kept: Required<AppCsp>;
  /** What was dropped, with why, for the audit log and the card. */
  dropped: RefusedSource[];
}

/** Plugboard's own origins (`http://127.0.0.1:5173`…): an App may never be allowed to reach them. */
export function keepSources(declared: AppCsp | undefined, own: readonly string[]): CspSources {
  const ownHosts = own.flatMap((o) => {
    try {
      const u = new URL(o);
      return [{ host: u.hostname.toLowerCase(), port: u.port || (u.protocol === 'https:' ? '443' : '80') }];
    } catch {
      return [];
    }
  });
  const dropped: RefusedSource[] = [];
  const keep = (list: unknown, wsOk: boolean): string[] => {
    if (!Array.isArray(list)) return [];
    const out: string[] = [];
    for (const raw of list) {
      const why = refusal(raw, wsOk, ownHosts);
      if (why) dropped.push({ source: typeof raw === 'string' ? raw : JSON.stringify(raw), why });
      else if (!out.includes(raw as string)) out.push((raw as string).replace(/\/$/, ''));
    }
    return out;
  };
  return {
    kept: {
      connectDomains: keep(declared?.connectDomains, true),
      resourceDomains: keep(declared?.resourceDomains, false),
      frameDomains: keep(declared?.frameDomains, false),
      baseUriDomains: keep(declared?.baseUriDomains, false),
    },
    dropped,
  };
}

function refusal(raw: unknown, wsOk: boolean, own: Array<{ host: string; port: string }>): string | undefined {
  if (typeof raw !== 'string') return 'not a string';
  const m = SOURCE.exec(raw);
  if (!m) return 'not an origin of the form scheme://host[:port]';
  const scheme = `${(m[1] as string).toLowerCase()}:`;
  if (!SCHEMES.has(scheme) || (!wsOk && scheme.startsWith('ws'))) return `the scheme ${scheme} is not allowed here`;
  const host = (m[3] as string).toLowerCase();
  const port = m[4] ?? (scheme === 'https:' || scheme === 'wss:' ? '443' : '80');
  if (own.some((o) => o.host === host && (port === '*' || port === o.port)))
    return 'it is Plugboard’s own address, which no App may reach';
  return undefined;
}

/** The page's policy: one header value. */
export function appPageCsp(kept: Required<AppCsp>): string {
  const list = (xs: string[], none = "'none'"): string => (xs.length ? xs.join(' ') : none);
  const res = kept.resourceDomains;
  const plus = (base: string): string => [base, ...res].join(' ');
  return [
    "default-src 'none'",
    `script-src ${plus("'unsafe-inline'")}`,
    `style-src ${plus("'unsafe-inline'")}`,
    `img-src ${plus('data: blob:')}`,
    `font-src ${plus('data:')}`,
    `media-src ${plus('data: blob:')}`,
    `connect-src ${list(kept.connectDomains)}`,
    `frame-src ${list(kept.frameDomains)}`,
    "object-src 'none'",
    `base-uri ${list(kept.baseUriDomains)}`,
    "form-action 'none'",
  ].join('; ');
}
