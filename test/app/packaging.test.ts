/**
 * electron-builder cannot run here (it downloads Electron), so this checks what the packaging
 * configuration promises: Linux, macOS and Windows targets, the native modules unpacked from the
 * asar and rebuilt for Electron, the bundled plugins and SDKs shipped as extra resources, and
 * every path it names present in the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO } from '../helpers/plugins';

interface Resource {
  from: string;
  to: string;
  filter: string[];
}
interface BuilderConfig {
  linux: { target: string[] };
  mac: { target: string[] };
  win: { target: string[] };
  asarUnpack: string[];
  npmRebuild: boolean;
  extraResources: Resource[];
}

const cfg = parse(readFileSync(path.join(REPO, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

describe('electron-builder.yml', () => {
  it('targets Linux (AppImage, deb), macOS and Windows', () => {
    expect(cfg.linux.target).toEqual(['AppImage', 'deb']);
    expect(cfg.mac.target.length).toBeGreaterThan(0);
    expect(cfg.win.target).toContain('nsis');
  });

  it('unpacks the native modules (node-pty, better-sqlite3) from the asar and rebuilds them for Electron', () => {
    expect(cfg.asarUnpack).toContain('node_modules/node-pty/**');
    expect(cfg.asarUnpack).toContain('node_modules/better-sqlite3/**');
    expect(cfg.npmRebuild).toBe(true);
    // better-sqlite3 is a dependency of the app (packaged), sql.js only of the bench and tests.
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies['better-sqlite3']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.dependencies['sql.js']).toBeUndefined();
  });

  it('ships the bundled plugins and the SDKs as extra resources, without their tests', () => {
    const plugins = cfg.extraResources.find((r) => r.from === 'plugins') as Resource;
    const sdk = cfg.extraResources.find((r) => r.from === 'sdk') as Resource;
    expect(plugins).toEqual(expect.objectContaining({ to: 'plugins' }));
    expect(plugins.filter).toContain('!**/test/**');
    expect(sdk.filter).toEqual(expect.arrayContaining(['python/gassist_sdk.py', 'node/dist/**']));
    for (const f of [
      'sdk/python/gassist_sdk.py',
      'sdk/node/package.json',
      'plugins/hello/plugboard.json',
      'plugins/terminal/plugboard.json',
    ]) {
      expect(existsSync(path.join(REPO, f))).toBe(true);
    }
  });

  it('bundled plugins find the SDK at the path they import it from, as packaged', () => {
    for (const id of ['hello', 'terminal', 'files', 'todo']) {
      const entry = readFileSync(path.join(REPO, 'plugins', id, 'plugin.mjs'), 'utf8');
      expect(entry).toContain('../../sdk/node/dist/index.js');
    }
  });
});
