/**
 * A plugin's settings: the values a person gave (checked against each setting's type), where each
 * is kept (sensitive ones in the secret store, never in the settings file), what a screen may show
 * of them, which required ones are missing, and the values a launch gets.
 *
 * Which secret settings have a value is remembered per plugin, so the plugin list can name a
 * missing secret without reading the secret store (the OS keychain in the app) every time.
 */
import { failure, type Done } from '../../../shared/failures';
import type { SettingSpec } from '../../../shared/plugin';
import { coerceSetting, displayValue, type SettingValue } from '../../host';
import type { SecretStore } from '../secrets';
import type { PluginState, StateStore } from './state';

export type SettingView = SettingSpec & { value: string | null; isSet: boolean };

export interface SettingsDeps {
  state: StateStore;
  secrets: SecretStore;
  /** The plugin's decisions, defaults included. */
  pluginState(id: string): PluginState;
  /** Writes a change to the plugin's decisions, with its audit line when given (both or neither). */
  update(id: string, fn: (s: PluginState) => void, audit?: { action: 'configure'; detail: string }): Promise<void>;
}

export class PluginSettings {
  private readonly secretKeys = new Map<string, Set<string>>();

  constructor(private readonly deps: SettingsDeps) {}

  /** A plugin's secrets, noting which are set. */
  private async readSecrets(id: string): Promise<Record<string, string>> {
    const values = await this.deps.secrets.get(id);
    this.secretKeys.set(id, new Set(Object.keys(values)));
    return values;
  }

  /** Notes which of a plugin's secrets are set (at load and install); errors leave it unknown. */
  async noteSecrets(id: string, specs: SettingSpec[]): Promise<void> {
    if (specs.some((s) => s.sensitive)) await this.readSecrets(id).catch(() => undefined);
  }

  forget(id: string): void {
    this.secretKeys.delete(id);
  }

  /**
   * Sets settings from text (`KEY=VALUE`) or values; `null` unsets. Every value is checked
   * before any is stored. A refusal never quotes a secret's value.
   */
  async configure(id: string, specs: SettingSpec[], values: Record<string, unknown>): Promise<Done> {
    const plain: Record<string, SettingValue | null> = {};
    const secret: Record<string, string | null> = {};
    for (const [key, raw] of Object.entries(values)) {
      const spec = specs.find((s) => s.key === key);
      if (!spec)
        return failure(
          'invalid_input',
          `${id} has no setting "${key}" (it has: ${specs.map((s) => s.key).join(', ') || 'none'})`,
        );
      if (raw === null) {
        (spec.sensitive ? secret : plain)[key] = null;
        continue;
      }
      const c = coerceSetting(spec, raw);
      if (!c.ok) {
        // The message would quote the value: a secret's value must not reach the audit log or a screen.
        return failure(
          'invalid_input',
          spec.sensitive
            ? `${key}: the value given is not a valid ${spec.type} (not shown: the setting is secret)`
            : c.message,
        );
      }
      if (spec.sensitive) secret[key] = Array.isArray(c.value) ? JSON.stringify(c.value) : String(c.value);
      else plain[key] = c.value;
    }
    const where = Object.keys(secret).length ? ` (secrets in ${this.deps.secrets.description})` : '';
    const detail = `set ${Object.keys(values).join(', ')}${where}`;
    try {
      // Secrets live in their own store (the OS key store in the app), which cannot join the
      // state file's write: they go first, and the audit line goes with the state.
      for (const [k, v] of Object.entries(secret)) await this.deps.secrets.set(id, k, v);
      if (Object.keys(secret).length > 0) await this.readSecrets(id);
      await this.deps.update(
        id,
        (s) => {
          for (const [k, v] of Object.entries(plain)) {
            if (v === null) delete s.settings[k];
            else s.settings[k] = v;
          }
        },
        { action: 'configure', detail },
      );
    } catch (e) {
      return failure('io_error', `could not save the settings of ${id}: ${(e as Error).message}`);
    }
    return { ok: true, detail };
  }

  /** Required settings that have neither a value nor a default, secret ones included. */
  missing(id: string, specs: SettingSpec[]): string[] {
    const stored = this.deps.pluginState(id).settings;
    const secrets = this.secretKeys.get(id);
    const isSet = (key: string, sensitive: boolean): boolean =>
      sensitive ? (secrets?.has(key) ?? false) : stored[key] !== undefined;
    return specs.filter((s) => s.required && s.default === undefined && !isSet(s.key, s.sensitive)).map((s) => s.key);
  }

  /** Each setting with what a person may see of its value (secrets masked) and whether it is set. */
  async view(id: string, specs: SettingSpec[]): Promise<SettingView[]> {
    const stored = this.deps.pluginState(id).settings;
    const secrets = specs.some((s) => s.sensitive) ? await this.readSecrets(id) : {};
    return specs.map((s) => {
      const raw = s.sensitive ? secrets[s.key] : stored[s.key];
      return { ...s, value: displayValue(s, raw), isSet: raw !== undefined };
    });
  }

  /** Setting values for a launch: stored values, then secrets when `secrets` is granted. */
  async launchValues(id: string, specs: SettingSpec[]): Promise<Record<string, SettingValue>> {
    const state = this.deps.pluginState(id);
    const out: Record<string, SettingValue> = { ...state.settings };
    if (!state.grants.includes('secrets')) return out;
    for (const [k, v] of Object.entries(await this.readSecrets(id))) {
      const s = specs.find((x) => x.key === k);
      out[k] = s?.multiple && v.startsWith('[') ? (JSON.parse(v) as string[]) : v;
    }
    return out;
  }

  /** The secret settings a launch needs but may not get, because `secrets` is not granted. */
  withheld(id: string, specs: SettingSpec[]): string[] {
    if (this.deps.pluginState(id).grants.includes('secrets')) return [];
    return specs.filter((s) => s.sensitive && s.required && s.default === undefined).map((s) => s.key);
  }
}
