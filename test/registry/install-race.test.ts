/**
 * An install that fails after it made `plugins/` must not remove what another process put there
 * meanwhile. The other process's install cannot be made to land at that exact moment for real,
 * so the one system call in between is intercepted: when this install moves its staged folder
 * into `plugins/`, another plugin's folder appears there first (as another Plugboard's install
 * would), and the move fails with the error a full disk gives. Everything else is real.
 */
import type * as NodeFs from 'node:fs';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const renameSync = (from: string, to: string): void => {
    if (String(to).endsWith(`${path.sep}plugins${path.sep}gassist-python`)) {
      const other = path.join(path.dirname(String(to)), 'other-install');
      fs.mkdirSync(other);
      fs.writeFileSync(path.join(other, 'manifest.json'), '{"installed by":"another process"}');
      throw Object.assign(new Error(`ENOSPC: no space left on device, rename '${String(from)}' -> '${String(to)}'`), {
        code: 'ENOSPC',
      });
    }
    fs.renameSync(from, to);
  };
  return { ...fs, renameSync, default: { ...fs, renameSync } };
});

afterAll(() => cleanupFixtures());

describe('a failed install into a data directory that had no plugins folder', () => {
  it('is refused, and keeps the plugin another process installed into the folder meanwhile', async () => {
    const data = path.join(tmpDir('race'), 'data');
    mkdirSync(data);
    writeFileSync(path.join(data, 'state.json'), '{"version":1,"plugins":{}}');
    const registry = await PluginRegistry.open({ dataDir: data });
    try {
      expect(existsSync(path.join(data, 'plugins'))).toBe(false);
      const r = await registry.installer.install(path.join(FIXTURES, 'gassist-python'));
      expect(r).toEqual(
        expect.objectContaining({
          ok: false,
          message: expect.stringMatching(/^could not move gassist-python into place: ENOSPC/),
        }),
      );
      expect(readFileSync(path.join(data, 'plugins', 'other-install', 'manifest.json'), 'utf8')).toContain(
        'another process',
      );
      expect(existsSync(path.join(data, 'plugins', 'gassist-python'))).toBe(false);
    } finally {
      registry.dispose();
    }
  });
});
