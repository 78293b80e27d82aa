/**
 * Secrets moving between the CLI's plain `secrets.json` and the app's encrypted `secrets.enc.json`,
 * with real files. The app encrypts with Electron's safeStorage, which needs the Electron binary
 * these machines do not have; here an AES-256-GCM cipher with a random key stands in for it (a real
 * cipher: values on disk are unreadable without the key, and one key cannot read another's values).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { EncryptedSecretFile, PlainSecretFile, type Cipher } from '../../src/main/app/secret-files';
import { moveSecrets, MovingSecretStore } from '../../src/main/app/secret-migration';
import { FileSecretStore } from '../../src/main/plugins/secrets';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';

function aesCipher(key = randomBytes(32)): Cipher {
  return {
    encryptString(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    decryptString(encrypted) {
      const d = createDecipheriv('aes-256-gcm', key, encrypted.subarray(0, 12));
      d.setAuthTag(encrypted.subarray(12, 28));
      return Buffer.concat([d.update(encrypted.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

let data: string;
let plainPath: string;
let encPath: string;
const cipher = aesCipher();

beforeEach(() => {
  data = tmpDir('secrets');
  plainPath = path.join(data, 'secrets.json');
  encPath = path.join(data, 'secrets.enc.json');
});
afterAll(() => cleanupFixtures());

const onDisk = (file: string): string => readFileSync(file, 'utf8');

describe('moving secrets between the plain and the encrypted file', () => {
  it('moves what the CLI set into the encrypted store and out of the plain file', async () => {
    // Written the way `plugboard plugins config` writes them.
    const cli = new FileSecretStore(plainPath);
    await cli.set('weather', 'apiKey', 'sk-weather-123');
    await cli.set('mail', 'password', 'hunter2');
    const enc = new EncryptedSecretFile(encPath, cipher, 'the test cipher');

    expect(await moveSecrets(new PlainSecretFile(plainPath), enc)).toBe(2);

    expect(await enc.get('weather')).toEqual({ apiKey: 'sk-weather-123' });
    expect(await enc.get('mail')).toEqual({ password: 'hunter2' });
    expect(onDisk(encPath)).not.toContain('sk-weather-123');
    expect(onDisk(encPath)).not.toContain('hunter2');
    expect(statSync(encPath).mode & 0o777).toBe(0o600);
    expect(JSON.parse(onDisk(plainPath))).toEqual({});
    expect(await cli.get('weather')).toEqual({});
  });

  it('lets a value from the plain file replace the older encrypted one, and keeps the other keys', async () => {
    const enc = new EncryptedSecretFile(encPath, cipher, 'the test cipher');
    await enc.set('weather', 'apiKey', 'old');
    await enc.set('weather', 'region', 'eu');
    await new FileSecretStore(plainPath).set('weather', 'apiKey', 'new');

    expect(await moveSecrets(new PlainSecretFile(plainPath), enc)).toBe(1);
    expect(await enc.get('weather')).toEqual({ apiKey: 'new', region: 'eu' });
  });

  it('moves only what it can decrypt out of an encrypted file, and leaves the rest there', async () => {
    // The Linux case: values an earlier run encrypted with basic_text (decryptable) or a keyring that is gone.
    const readable = new EncryptedSecretFile(encPath, cipher, 'the test cipher');
    await readable.set('weather', 'apiKey', 'sk-1');
    await new EncryptedSecretFile(encPath, aesCipher(), 'another key').set('mail', 'password', 'p');
    const plain = new PlainSecretFile(plainPath);

    expect(await moveSecrets(readable, plain)).toBe(1);
    expect(await plain.get('weather')).toEqual({ apiKey: 'sk-1' });
    expect(await plain.get('mail')).toEqual({});
    expect(Object.keys(JSON.parse(onDisk(encPath)) as object)).toEqual(['mail']);
  });

  it('does nothing when there is nothing to move', async () => {
    expect(await moveSecrets(new PlainSecretFile(plainPath), new EncryptedSecretFile(encPath, cipher, 'x'))).toBe(0);
  });
});

describe('the app store that takes over the other store', () => {
  const open = (): MovingSecretStore =>
    new MovingSecretStore(
      new EncryptedSecretFile(encPath, cipher, 'the OS store'),
      new PlainSecretFile(plainPath),
      () => undefined,
    );

  it('moves everything when it opens, and says where secrets live', async () => {
    await new FileSecretStore(plainPath).set('weather', 'apiKey', 'sk-1');
    await new FileSecretStore(plainPath).set('mail', 'password', 'p');
    const store = open();
    expect(store.description).toBe('the OS store');
    expect(await store.get('mail')).toEqual({ password: 'p' });
    // 'weather' was never read through the store, yet it is out of the plain file too.
    expect(JSON.parse(onDisk(plainPath))).toEqual({});
    expect(await new EncryptedSecretFile(encPath, cipher, 'x').get('weather')).toEqual({ apiKey: 'sk-1' });
  });

  it('sees a secret the CLI sets while the app runs', async () => {
    const store = open();
    await store.set('weather', 'region', 'eu');
    await new FileSecretStore(plainPath).set('weather', 'apiKey', 'sk-2');
    expect(await store.get('weather')).toEqual({ region: 'eu', apiKey: 'sk-2' });
    expect(onDisk(plainPath)).not.toContain('sk-2');
  });

  it('drops an older copy in the other store when it sets a key, so the old value cannot come back', async () => {
    const store = open();
    await store.get('weather');
    // The CLI writes while the app runs, then the user changes it in the app before any read.
    await new FileSecretStore(plainPath).set('weather', 'apiKey', 'from-cli');
    await store.set('weather', 'apiKey', 'from-app');
    expect(await store.get('weather')).toEqual({ apiKey: 'from-app' });
  });

  it('removes a plugin’s secrets from both stores', async () => {
    const store = open();
    await store.set('weather', 'apiKey', 'a');
    await new FileSecretStore(plainPath).set('weather', 'region', 'eu');
    await store.removeAll('weather');
    expect(await store.get('weather')).toEqual({});
    expect(await new FileSecretStore(plainPath).get('weather')).toEqual({});
  });

  it('reports a plain file it cannot read, and keeps working', async () => {
    writeFileSync(plainPath, '{ not json');
    const reports: string[] = [];
    const store = new MovingSecretStore(
      new EncryptedSecretFile(encPath, cipher, 'the OS store'),
      new PlainSecretFile(plainPath),
      (m) => reports.push(m),
    );
    await store.set('weather', 'apiKey', 'a');
    expect(await store.get('weather')).toEqual({ apiKey: 'a' });
    expect(reports[0]).toMatch(/could not move secrets from .*secrets\.json.*not valid JSON/);
  });
});
