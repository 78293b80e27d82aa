/**
 * OAuth 2.1 for remote MCP servers, through the official SDK's client-side auth
 * (`@modelcontextprotocol/client`: `auth()` and an `OAuthClientProvider`). The SDK does the
 * protocol: protected-resource metadata (RFC 9728), authorization-server discovery (RFC 8414 and
 * OpenID configuration) with its issuer check, a Client ID Metadata Document where the server
 * supports one and dynamic registration otherwise, PKCE, the resource indicator (RFC 8707), the
 * `iss` of the answer (RFC 9207), refresh. What is Plugboard's is kept here:
 *   - where a sign-in lives: a `TokenVault` its owner gives the host (the plugin service keeps it
 *     in the secret store, the OS key store in the app), as one record per server;
 *   - when a token is refreshed: before it expires (`REFRESH_AHEAD`), on the request that finds it
 *     close to its end, not only after the server has refused it;
 *   - that nothing signs in behind the person's back: a call or a start (`mode: 'background'`)
 *     uses and refreshes what is stored, and where the SDK would send the person to the
 *     authorization server it only notes that a sign-in is needed (the call then fails saying
 *     how to sign in). Registering a client and asking for consent happen in a sign-in the person
 *     started (`mode: 'interactive'`, sign-in.ts).
 */
import {
  auth,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';

/** One server's sign-in as it is stored: tokens, the client registration, discovery, the flow's verifier. */
export interface OAuthRecord {
  tokens?: StoredOAuthTokens;
  /** When the access token expires (ms since the epoch), from `expires_in` at the time it was issued. */
  expiresAt?: number;
  /** When the tokens were issued or last refreshed (ms since the epoch). */
  issuedAt?: number;
  /** Registrations by issuer: a client id one authorization server gave is never sent to another. */
  clients?: Record<string, StoredOAuthClientInformation>;
  /** The redirect URI the registration was made with (its loopback port is reused when free). */
  redirectUri?: string;
  discovery?: OAuthDiscoveryState;
  /** PKCE verifier of a sign-in under way. */
  verifier?: string;
}

/** Where one server's sign-in is kept; its owner decides where (the secret store). */
export interface TokenVault {
  read(): Promise<OAuthRecord | undefined>;
  write(record: OAuthRecord | undefined): Promise<void>;
}

/** How long before its end an access token is refreshed: 60 s, or half its life when that is shorter. */
export function refreshAhead(record: OAuthRecord): number {
  const life = record.expiresAt !== undefined && record.issuedAt !== undefined ? record.expiresAt - record.issuedAt : 0;
  return Math.min(60_000, Math.max(0, life / 2));
}

/** The loopback redirect a registration names when no sign-in has chosen its port yet. */
export const DEFAULT_REDIRECT = 'http://127.0.0.1/callback';

export interface ProviderOptions {
  mode: 'interactive' | 'background';
  /** The MCP server the tokens are for. */
  serverUrl: string;
  /** The loopback callback of a sign-in under way (interactive). */
  redirectUrl?: string;
  /** Plugboard's Client ID Metadata Document (an https URL), used where the server supports one. */
  clientMetadataUrl?: string;
  /** The `state` of a sign-in under way, compared with the callback's. */
  state?: string;
  /** Where the person is sent to consent (interactive). */
  onRedirect?: (url: URL) => void;
  /** Injected for the tests: the time now. */
  now?: () => number;
}

export class PlugboardOAuthProvider implements OAuthClientProvider {
  /** Set when, outside a sign-in, the server wants one (no token, or one the server refused and could not be refreshed). */
  signInNeeded = false;
  private record: OAuthRecord | undefined;
  private loaded: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly vault: TokenVault,
    private readonly opts: ProviderOptions,
  ) {
    this.now = opts.now ?? Date.now;
    if (opts.clientMetadataUrl) this.clientMetadataUrl = opts.clientMetadataUrl;
  }

  readonly clientMetadataUrl?: string;

  get redirectUrl(): string {
    // Outside a sign-in the stored redirect is named (never undefined: that would ask the SDK for
    // a client-credentials flow, which is not what a person's sign-in is).
    return this.opts.redirectUrl ?? this.record?.redirectUri ?? DEFAULT_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Plugboard',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    };
  }

  /** The stored record, read once per provider (the vault may be the OS key store). */
  async current(): Promise<OAuthRecord | undefined> {
    this.loaded ??= this.vault.read().then((r) => {
      this.record = r;
    });
    await this.loaded;
    return this.record;
  }

  private async change(fn: (r: OAuthRecord) => void): Promise<void> {
    const r: OAuthRecord = { ...((await this.current()) ?? {}) };
    fn(r);
    this.record = r;
    await this.vault.write(r);
  }

  state(): string {
    return this.opts.state ?? '';
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const r = await this.current();
    if (!ctx) return undefined;
    const info = r?.clients?.[ctx.issuer];
    // Outside a sign-in, no registration means nobody has signed in here yet.
    if (!info && this.opts.mode === 'background') this.signInNeeded = true;
    // A registration made for another redirect (another loopback port) cannot be used with this one.
    if (info && this.opts.mode === 'interactive' && 'redirect_uris' in info) {
      const uris = (info as { redirect_uris?: string[] }).redirect_uris;
      if (Array.isArray(uris) && !uris.includes(this.redirectUrl)) return undefined;
    }
    return info;
  }

  /** Registers (dynamically, or by the metadata document's URL) only in a sign-in the person started. */
  get saveClientInformation():
    ((info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext) => Promise<void>) | undefined {
    if (this.opts.mode !== 'interactive') return undefined;
    return async (info, ctx) => {
      const issuer = ctx?.issuer ?? info.issuer;
      if (!issuer) return;
      await this.change((r) => {
        r.clients = { ...(r.clients ?? {}), [issuer]: info };
        r.redirectUri = this.redirectUrl;
      });
    };
  }

  /**
   * The stored tokens. The transport's read before each request (no `ctx`) refreshes them first
   * when they are about to expire; the SDK's own reads (with `ctx`) get them as they are.
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const r = await this.current();
    if (!ctx && r?.tokens?.refresh_token && r.expiresAt !== undefined && this.now() >= r.expiresAt - refreshAhead(r)) {
      this.refreshing ??= this.refresh().finally(() => (this.refreshing = undefined));
      await this.refreshing;
    }
    return this.record?.tokens;
  }

  /** A refresh through the SDK (its refresh branch; a failed refresh ends as "sign-in needed"). */
  private async refresh(): Promise<void> {
    try {
      await auth(this, { serverUrl: this.opts.serverUrl });
    } catch {
      // The request goes without a fresh token; the server's 401 says what to do next.
    }
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const issuedAt = this.now();
    await this.change((r) => {
      // A refresh may come without a new refresh token: the old one stays valid then (RFC 6749 §6).
      r.tokens = {
        ...tokens,
        ...(tokens.refresh_token ? {} : r.tokens?.refresh_token ? { refresh_token: r.tokens.refresh_token } : {}),
      };
      r.issuedAt = issuedAt;
      if (typeof tokens.expires_in === 'number') r.expiresAt = issuedAt + tokens.expires_in * 1000;
      else delete r.expiresAt;
      delete r.verifier;
    });
    this.signInNeeded = false;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.opts.mode === 'interactive' && this.opts.onRedirect) return this.opts.onRedirect(url);
    this.signInNeeded = true;
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    if (this.opts.mode !== 'interactive') return;
    await this.change((r) => {
      r.verifier = verifier;
    });
  }

  async codeVerifier(): Promise<string> {
    const v = (await this.current())?.verifier;
    if (!v) throw new Error('no sign-in is under way for this server (no PKCE verifier)');
    return v;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.change((r) => {
      r.discovery = state;
    });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.current())?.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.change((r) => {
      if (scope === 'all' || scope === 'tokens') {
        delete r.tokens;
        delete r.expiresAt;
        delete r.issuedAt;
      }
      if (scope === 'all' || scope === 'client') delete r.clients;
      if (scope === 'all' || scope === 'verifier') delete r.verifier;
      if (scope === 'all' || scope === 'discovery') delete r.discovery;
    });
    if (scope === 'all' || scope === 'tokens') this.signInNeeded = true;
  }

  /** The token strings held now, to hide wherever text about this server is shown. */
  secretStrings(): string[] {
    const t = this.record?.tokens;
    return [t?.access_token, t?.refresh_token, t?.id_token].filter(
      (s): s is string => typeof s === 'string' && s.length > 0,
    );
  }
}
