/**
 * Where sensitive setting values live. The app uses Electron's safeStorage (an OS keychain-backed
 * store, wired in main/app); the CLI and the web server use a file in the data directory that
 * only its owner can read (mode 0600). Secrets never enter the settings file.
 */
import { chmodSync, existsSync } from 'node:fs';
import { readJson, withFileLock, writeJsonAtomic } from '../fs';

export interface SecretStore {
  /** Where the values are kept, in words, for the README and the UI. */
  readonly description: string;
  get(pluginId: string): Promise<Record<string, string>>;
  set(pluginId: string, key: string, value: string | null): Promise<void>;
  removeAll(pluginId: string): Promise<void>;
}

type SecretFile = Record<string, Record<string, string>>;

export class FileSecretStore implements SecretStore {
  readonly description: string;

  constructor(private readonly file: string) {
    this.description = `${file} (readable by its owner only)`;
  }

  async get(pluginId: string): Promise<Record<string, string>> {
    return { ...(this.read()[pluginId] ?? {}) };
  }

  async set(pluginId: string, key: string, value: string | null): Promise<void> {
    await withFileLock(this.file, () => {
      const all = this.read();
      const mine = { ...(all[pluginId] ?? {}) };
      if (value === null) delete mine[key];
      else mine[key] = value;
      if (Object.keys(mine).length === 0) delete all[pluginId];
      else all[pluginId] = mine;
      this.write(all);
    });
  }

  async removeAll(pluginId: string): Promise<void> {
    if (!existsSync(this.file)) return;
    await withFileLock(this.file, () => {
      const all = this.read();
      if (!(pluginId in all)) return;
      delete all[pluginId];
      this.write(all);
    });
  }

  private read(): SecretFile {
    return readJson<SecretFile>(this.file, {});
  }

  private write(all: SecretFile): void {
    writeJsonAtomic(this.file, all, 0o600);
    chmodSync(this.file, 0o600);
  }
}
