/**
 * Secrets in the app: each value encrypted with Electron's safeStorage (the OS keychain's key:
 * Keychain on macOS, DPAPI on Windows, libsecret/kwallet on Linux) and kept, encrypted, in a file
 * of the data directory that only its owner can read. Where the OS offers no key store (a Linux
 * session without a keyring), the plain owner-only file is used, and the UI says so.
 */
import { safeStorage } from 'electron';
import { FileSecretStore, type SecretStore } from '../host/registry/secrets';

class SafeStorageSecretStore implements SecretStore {
  readonly description = 'the operating system’s secret store (Electron safeStorage)';

  constructor(private readonly file: FileSecretStore) {}

  async get(pluginId: string): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(await this.file.get(pluginId))) {
      try {
        out[k] = safeStorage.decryptString(Buffer.from(v, 'base64'));
      } catch {
        // Encrypted under another key (a moved profile): treat as unset rather than crash.
      }
    }
    return out;
  }

  async set(pluginId: string, key: string, value: string | null): Promise<void> {
    await this.file.set(pluginId, key, value === null ? null : safeStorage.encryptString(value).toString('base64'));
  }

  removeAll(pluginId: string): Promise<void> {
    return this.file.removeAll(pluginId);
  }
}

export function appSecretStore(file: string): SecretStore {
  if (safeStorage.isEncryptionAvailable()) return new SafeStorageSecretStore(new FileSecretStore(file.replace(/\.json$/, '.enc.json')));
  return new FileSecretStore(file);
}
