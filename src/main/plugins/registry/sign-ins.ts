/**
 * Sign-ins to remote MCP servers (OAuth): where each server's tokens are kept (the secret store,
 * the OS key store in the app; never the state file, the logs or the audit log), whether a plugin
 * is signed in, and a person's sign-in and sign-out, audited by the issuer's name only. The
 * protocol is the host's (host/remote/oauth.ts, sign-in.ts); a launch finds the stored tokens
 * through the vault its binding carries.
 */
import { failure, type Outcome } from '../../../shared/failures';
import type { PluginSpec } from '../../../shared/plugin';
import { signInRemote, signOutRemote, type LaunchPlan, type OAuthRecord, type TokenVault } from '../../host';
import type { AuditLog } from '../audit';
import type { SecretStore } from '../secrets';

/** The secret-store id of a server's sign-in: `:` cannot appear in a plugin id. */
export function signInSecretId(pluginId: string): string {
  return `oauth:${pluginId}`;
}

const KEY = 'record';

/** One server's sign-in, kept as one JSON value in the secret store. */
class SecretVault implements TokenVault {
  constructor(
    private readonly secrets: SecretStore,
    private readonly id: string,
  ) {}

  async read(): Promise<OAuthRecord | undefined> {
    const text = (await this.secrets.get(signInSecretId(this.id)))[KEY];
    if (!text) return undefined;
    try {
      return JSON.parse(text) as OAuthRecord;
    } catch {
      return undefined;
    }
  }

  async write(record: OAuthRecord | undefined): Promise<void> {
    const empty = !record || Object.keys(record).length === 0;
    await this.secrets.set(signInSecretId(this.id), KEY, empty ? null : JSON.stringify(record));
  }
}

export type SignInState = 'signed_in' | 'signed_out';

export interface SignInDeps {
  secrets: SecretStore;
  audit: AuditLog;
  /** The plugin's launch plan as it would be now (its URL and headers with the settings filled in). */
  plan(spec: PluginSpec): Promise<LaunchPlan | { ok: false; message: string }>;
  /** After a sign-in or out: the next launch uses it (a running plugin restarts). */
  applied(spec: PluginSpec): Promise<void>;
  /** Plugboard's Client ID Metadata Document, where one is published. */
  clientMetadataUrl?: string;
}

/** Whether a launch of this plan signs in with OAuth: remote, with no credentials of its own in its headers. */
export function usesOAuth(plan: LaunchPlan): boolean {
  return (
    plan.remote !== undefined && !Object.keys(plan.remote.headers).some((h) => h.toLowerCase() === 'authorization')
  );
}

export class SignIns {
  constructor(private readonly d: SignInDeps) {}

  vault(id: string): TokenVault {
    return new SecretVault(this.d.secrets, id);
  }

  /** What a launch of a remote server needs to use and refresh the stored sign-in. */
  withOAuth(id: string, plan: LaunchPlan): LaunchPlan {
    if (!usesOAuth(plan) || !plan.remote) return plan;
    return {
      ...plan,
      remote: {
        ...plan.remote,
        oauth: {
          vault: this.vault(id),
          ...(this.d.clientMetadataUrl ? { clientMetadataUrl: this.d.clientMetadataUrl } : {}),
        },
      },
    };
  }

  /** Signed in (tokens stored) or not; undefined for a plugin that does not sign in with OAuth. */
  async state(spec: PluginSpec): Promise<{ state: SignInState; issuer?: string; expiresAt?: number } | undefined> {
    if (!spec.remote) return undefined;
    if (Object.keys(spec.remote.headers).some((h) => h.toLowerCase() === 'authorization')) return undefined;
    const r = await this.vault(spec.id)
      .read()
      .catch(() => undefined);
    if (!r?.tokens) return { state: 'signed_out' };
    const issuer = r.tokens.issuer;
    return { state: 'signed_in', ...(issuer ? { issuer } : {}), ...(r.expiresAt ? { expiresAt: r.expiresAt } : {}) };
  }

  async signIn(
    spec: PluginSpec,
    open: (url: string) => void | Promise<void>,
    signal?: AbortSignal,
  ): Promise<Outcome<{ detail: string; url?: string }>> {
    const plan = await this.d.plan(spec);
    if (!plan.ok) return failure('settings_missing', `${spec.id} cannot be reached yet: ${plan.message}`);
    if (!plan.remote)
      return failure('invalid_state', `${spec.id} is not a remote server: there is nothing to sign in to`);
    if (!usesOAuth(plan))
      return failure(
        'invalid_state',
        `${spec.id} sends its own Authorization header (its settings): it does not sign in with OAuth`,
      );
    const r = await signInRemote({
      serverUrl: plan.remote.url,
      vault: this.vault(spec.id),
      open,
      ...(this.d.clientMetadataUrl ? { clientMetadataUrl: this.d.clientMetadataUrl } : {}),
      ...(signal ? { signal } : {}),
    });
    if (!r.ok) {
      this.d.audit.append({ action: 'sign-in', plugin: spec.id, ok: false, detail: r.message });
      return r;
    }
    const detail = r.value.notNeeded
      ? `${new URL(plan.remote.url).host} does not ask for a sign-in`
      : `signed in${r.value.issuer ? ` at ${r.value.issuer}` : ''}`;
    this.d.audit.append({ action: 'sign-in', plugin: spec.id, ok: true, detail });
    await this.d.applied(spec);
    return { ok: true, detail };
  }

  async signOut(spec: PluginSpec): Promise<Outcome<{ detail: string }>> {
    if (!spec.remote)
      return failure('invalid_state', `${spec.id} is not a remote server: there is nothing to sign out of`);
    let detail: string;
    try {
      detail = (await signOutRemote(this.vault(spec.id))).detail;
    } catch (e) {
      return failure('io_error', `could not forget the sign-in of ${spec.id}: ${(e as Error).message}`);
    }
    this.d.audit.append({ action: 'sign-out', plugin: spec.id, ok: true, detail });
    await this.d.applied(spec);
    return { ok: true, detail };
  }

  /** Everything of a server's sign-in goes with the plugin (uninstall). */
  async forget(id: string): Promise<void> {
    await this.d.secrets.removeAll(signInSecretId(id));
  }
}
