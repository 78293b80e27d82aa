/**
 * Hostile manifests, installed for real: one of 40 MB, one whose description or tool list is far
 * past any real plugin's, and MCPB bundles whose names are not ASCII (fullwidth `Ｆｉｌｅｓ`, which
 * once installed as the id `plugin`, and Cyrillic and Japanese names that all collided on it).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_PATTERN } from '../../src/main/plugins/manifests';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, FIXTURES, REPO, tmpDir } from '../helpers/plugins';

let registry: PluginRegistry;
let src: string;

beforeAll(async () => {
  const dir = tmpDir('bounded');
  src = path.join(dir, 'src');
  registry = await PluginRegistry.open({ dataDir: path.join(dir, 'data'), bundledDir: path.join(REPO, 'plugins') });
});

afterAll(async () => {
  await registry.shutdown();
  registry.dispose();
  cleanupFixtures();
});

/** A copy of the mcpb-echo bundle with its manifest changed by `edit`. */
function bundle(folder: string, edit: (m: Record<string, unknown>) => void): string {
  const dir = path.join(src, folder);
  cpSync(path.join(FIXTURES, 'mcpb-echo'), dir, { recursive: true });
  const m = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  edit(m);
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(m));
  return dir;
}

describe('manifest sizes', () => {
  it('refuses a 40 MB manifest before reading it, naming its size and the limit', async () => {
    const dir = bundle('huge', (m) => (m.description = 'x'.repeat(40 * 1024 * 1024)));
    const r = await registry.installer.install(dir);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/the manifest is 41,943,\d{3} bytes; at most 1,048,576 are read/);
    expect(registry.list().some((p) => p.id === 'mcpb-echo')).toBe(false);
  });

  it('refuses fields past their limits, naming each field', async () => {
    const dir = bundle('long', (m) => {
      m.description = 'd'.repeat(20_000);
      m.tools = Array.from({ length: 3 }, (_, i) => ({
        name: `t${i}`,
        description: i === 1 ? 'y'.repeat(12_000) : 'ok',
      }));
    });
    const r = await registry.installer.install(dir);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain('description: 20,000 characters; at most 10,000');
    expect(!r.ok && r.message).toContain('tools[1] (t1).description: 12,000 characters; at most 10,000');
  });

  it('refuses more tools than the limit', async () => {
    const dir = bundle(
      'many',
      (m) => (m.tools = Array.from({ length: 1500 }, (_, i) => ({ name: `t${i}`, description: '' }))),
    );
    const r = await registry.installer.install(dir);
    expect(!r.ok && r.message).toContain('tools: 1,500 entries; at most 1,000');
  });
});

describe('names that are not ASCII', () => {
  it('get ids of their own that impersonate no other plugin, and keep their name', async () => {
    const ids: string[] = [];
    for (const [folder, name] of [
      ['fullwidth', 'Ｆｉｌｅｓ'],
      ['cyrillic', 'Файлы'],
      ['japanese', 'ファイル'],
      ['mixed', 'Files ✓'],
    ] as const) {
      const r = await registry.installer.install(
        bundle(folder, (m) => {
          m.name = name;
          delete m.display_name;
        }),
      );
      expect(r.ok, JSON.stringify(r)).toBe(true);
      const id = r.ok ? r.id : '';
      expect(id).toMatch(ID_PATTERN);
      expect(registry.record(id)?.spec?.name).toBe(name);
      ids.push(id);
    }
    expect(new Set(ids).size).toBe(4);
    // Not the bundled files plugin's id, nor the `plugin` every such name once became.
    expect(ids).not.toContain('files');
    expect(ids).not.toContain('plugin');
    expect(ids[0]).toMatch(/^files-[0-9a-f]{8}$/);
    expect(ids[1]).toMatch(/^plugin-[0-9a-f]{8}$/);
    expect(registry.record('files')?.source).toBe('bundled');
  });
});
