/**
 * Moving secrets between the app's store and the file other writers use. The CLI and the web
 * server keep secrets in the plain `secrets.json`; the app, with a working OS key store, in the
 * encrypted `secrets.enc.json` of the same data directory. A secret set with `plugboard plugins
 * config` must still reach the app, and must not stay in plain text longer than needed: so the
 * app moves whatever it finds in the other store into its own.
 *
 * A value found in the other store wins over the app's own: the app moves everything each time it
 * reads, so what is still there was written after the app's copy, by another writer.
 */
import type { SecretStore } from '../plugins';
import type { ListedSecretStore } from './secret-files';

/**
 * Moves the secrets of `pluginIds` (default: every plugin `from` has secrets for) into `to`, then
 * removes them from `from`. Values `from` cannot read (encrypted under another key) stay there.
 * Returns how many values moved.
 */
export async function moveSecrets(
  from: ListedSecretStore,
  to: SecretStore,
  pluginIds: string[] = from.pluginIds(),
): Promise<number> {
  let moved = 0;
  for (const id of pluginIds) {
    for (const [key, value] of Object.entries(await from.get(id))) {
      await to.set(id, key, value);
      await from.set(id, key, null);
      moved += 1;
    }
  }
  return moved;
}

/**
 * The app's store, `primary`, which takes over whatever `other` holds: everything when it opens
 * (before its first answer), and a plugin's secrets again each time they are read, so a secret set
 * by the CLI while the app runs is seen at the plugin's next launch. Writes go to `primary` only
 * and drop any copy of the key in `other`, so an older value cannot come back from there.
 * A failure to read `other` (say it is not valid JSON) is reported and does not stop the app.
 */
export class MovingSecretStore implements SecretStore {
  readonly description: string;
  private readonly opened: Promise<void>;

  constructor(
    private readonly primary: SecretStore,
    private readonly other: ListedSecretStore,
    private readonly report: (message: string) => void,
  ) {
    this.description = primary.description;
    this.opened = this.move();
  }

  async get(pluginId: string): Promise<Record<string, string>> {
    await this.opened;
    await this.move([pluginId]);
    return this.primary.get(pluginId);
  }

  async set(pluginId: string, key: string, value: string | null): Promise<void> {
    await this.opened;
    await this.primary.set(pluginId, key, value);
    await this.onOther('remove an old copy of a secret from', async () => {
      if (this.other.pluginIds().includes(pluginId)) await this.other.set(pluginId, key, null);
    });
  }

  async removeAll(pluginId: string): Promise<void> {
    await this.opened;
    await this.primary.removeAll(pluginId);
    await this.onOther('remove secrets from', () => this.other.removeAll(pluginId));
  }

  private move(pluginIds?: string[]): Promise<void> {
    return this.onOther('move secrets from', async () => {
      await moveSecrets(this.other, this.primary, pluginIds ?? this.other.pluginIds());
    });
  }

  private async onOther(what: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      this.report(`could not ${what} ${this.other.description}: ${(e as Error).message}`);
    }
  }
}
