/**
 * Secrets in the app. With a real OS key store behind Electron's safeStorage (Keychain on macOS,
 * DPAPI on Windows, libsecret or KWallet on Linux) each value is encrypted with its key and kept
 * in `secrets.enc.json`; secrets the CLI or the web server left in the plain `secrets.json` are
 * moved in (see secret-migration.ts).
 *
 * On Linux safeStorage also "works" with its `basic_text` backend, whose key is a constant in
 * Chromium's source: that protects nothing, so it counts as no key store. Without one the app uses
 * the plain owner-only `secrets.json`, the CLI's store, says so in so many words, and moves in what
 * an earlier version encrypted with `basic_text` (still readable, by design of that backend).
 */
import { safeStorage } from 'electron';
import type { SecretStore } from '../plugins';
import { EncryptedSecretFile, PlainSecretFile } from './secret-files';
import { MovingSecretStore } from './secret-migration';

/** The key store safeStorage would use, or null when there is none worth the name. */
function osKeyStore(): string | null {
  if (!safeStorage.isEncryptionAvailable()) return null;
  if (process.platform === 'darwin') return 'Keychain';
  if (process.platform === 'win32') return 'DPAPI';
  if (process.platform !== 'linux') return process.platform;
  // Only known once the app is ready, which is when the app opens its registry.
  const backend = safeStorage.getSelectedStorageBackend();
  return backend === 'basic_text' || backend === 'unknown' ? null : backend;
}

const report = (message: string): void => console.warn(`plugboard: ${message}`);

/** `file` is the data directory's `secrets.json`. */
export function appSecretStore(file: string): SecretStore {
  const encryptedFile = file.replace(/\.json$/, '.enc.json');
  const keyStore = osKeyStore();
  if (keyStore) {
    const encrypted = new EncryptedSecretFile(
      encryptedFile,
      safeStorage,
      `the operating system’s secret store (Electron safeStorage with ${keyStore})`,
    );
    return new MovingSecretStore(encrypted, new PlainSecretFile(file), report);
  }
  const plain = new PlainSecretFile(
    file,
    `${file}, a plain file only its owner can read: no operating-system key store is available to encrypt it`,
  );
  if (!safeStorage.isEncryptionAvailable()) return plain;
  // basic_text: what it encrypted can still be decrypted, so bring it here rather than lose it.
  const basic = new EncryptedSecretFile(encryptedFile, safeStorage, `${encryptedFile} (encrypted with a fixed key)`);
  return new MovingSecretStore(plain, basic, report);
}
