/**
 * The two files secrets can live in, both in the data directory and readable by their owner only:
 * `secrets.json` with plain values (what the CLI and the web server use, and the app where the OS
 * offers no real key store) and `secrets.enc.json` with each value encrypted by a cipher (Electron's
 * safeStorage in the app). Both can say which plugins they hold secrets for, so secrets can be
 * moved from one to the other. No electron here: the cipher is handed in.
 */
import { FileSecretStore, type SecretStore } from '../plugins';
import { readJson } from '../fs';

/** What the app needs of Electron's safeStorage. */
export interface Cipher {
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

export interface ListedSecretStore extends SecretStore {
  /** The plugins this store holds at least one secret for. */
  pluginIds(): string[];
}

/** The plain owner-only file, as the CLI writes it. */
export class PlainSecretFile extends FileSecretStore implements ListedSecretStore {
  override readonly description: string;

  constructor(
    private readonly path: string,
    description?: string,
  ) {
    super(path);
    this.description = description ?? `${path} (readable by its owner only)`;
  }

  pluginIds(): string[] {
    return Object.keys(readJson<Record<string, unknown>>(this.path, {}));
  }
}

/** Each value encrypted with `cipher` and kept, base64, in an owner-only file. */
export class EncryptedSecretFile implements ListedSecretStore {
  private readonly file: PlainSecretFile;

  constructor(
    path: string,
    private readonly cipher: Cipher,
    readonly description: string,
  ) {
    this.file = new PlainSecretFile(path);
  }

  async get(pluginId: string): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(await this.file.get(pluginId))) {
      try {
        out[key] = this.cipher.decryptString(Buffer.from(value, 'base64'));
      } catch {
        // Encrypted under another key (a moved profile, another keyring): treat as unset.
      }
    }
    return out;
  }

  async set(pluginId: string, key: string, value: string | null): Promise<void> {
    await this.file.set(pluginId, key, value === null ? null : this.cipher.encryptString(value).toString('base64'));
  }

  removeAll(pluginId: string): Promise<void> {
    return this.file.removeAll(pluginId);
  }

  pluginIds(): string[] {
    return this.file.pluginIds();
  }
}
