/**
 * A source that fails while it is copied (a bad disk sector, a file that cannot be read). Such
 * errors cannot be produced for real here: the tests run as root, who reads any file whatever
 * its mode. So the one system call is made to fail, for one file, with the error the system
 * would give; everything else is real.
 */
import type * as NodeFs from 'node:fs';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, FIXTURES, REPO, tmpDir } from '../helpers/plugins';
import { snapshot } from '../helpers/snapshot';

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const copyFileSync = (src: string, dest: string, mode?: number): void => {
    if (String(src).endsWith('bad-sector.bin')) {
      throw Object.assign(new Error(`EIO: i/o error, copyfile '${String(src)}' -> '${String(dest)}'`), { code: 'EIO' });
    }
    fs.copyFileSync(src, dest, mode);
  };
  return { ...fs, copyFileSync, default: { ...fs, copyFileSync } };
});

let data: string;
let registry: PluginRegistry;

beforeAll(async () => {
  data = path.join(tmpDir('io-errors'), 'data');
  registry = await PluginRegistry.open({ dataDir: data, bundledDir: path.join(REPO, 'plugins') });
  expect((await registry.installer.install(path.join(FIXTURES, 'gassist-python'))).ok).toBe(true);
});

afterAll(async () => {
  await registry.shutdown();
  registry.dispose();
  cleanupFixtures();
});

describe('install from a source that fails while copied', () => {
  it('is refused with the system’s error naming the file, and the data directory stays as it was', async () => {
    const src = path.join(tmpDir('bad-disk'), 'weather');
    cpSync(path.join(FIXTURES, 'gassist-python'), src, { recursive: true });
    mkdirSync(path.join(src, 'assets'));
    writeFileSync(path.join(src, 'assets', 'bad-sector.bin'), 'x');
    const before = snapshot(data, (rel) => rel === 'audit.log');
    const r = await registry.installer.install(src);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(
      /^could not copy weather: EIO: i\/o error, copyfile '.*assets\/bad-sector\.bin'/,
    );
    expect(snapshot(data, (rel) => rel === 'audit.log')).toEqual(before);
    expect(existsSync(path.join(data, '.staging'))).toBe(false);
    expect(registry.record('weather')).toBeUndefined();
  });
});
