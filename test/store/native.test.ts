/**
 * Which build of better-sqlite3 each runtime loads. Electron cannot run here (its binary cannot be
 * downloaded), so its side is checked as far as it goes without it: the options given under an
 * Electron runtime (its process.versions, faked here), and that better-sqlite3 loads a build kept
 * in a folder of its own through `nativeBinding` (the Node build, copied: the only one there is).
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, nativeOptions } from '../../src/main/assistant/store/native';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';

afterAll(() => cleanupFixtures());

const nodeBuild = path.join(
  path.dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')),
  'build',
  'Release',
  'better_sqlite3.node',
);

describe('the native build of better-sqlite3', () => {
  it('is the default one under Node, and the one named by PLUGBOARD_SQLITE_BINDING under Electron', () => {
    const env = { PLUGBOARD_SQLITE_BINDING: '/opt/electron-build/better_sqlite3.node' };
    expect(nativeOptions({ versions: { node: '20.20.2' }, env })).toEqual({});
    expect(nativeOptions({ versions: { node: '22.20.0', electron: '45.4.1' }, env })).toEqual({
      nativeBinding: env.PLUGBOARD_SQLITE_BINDING,
    });
    // The packaged app: electron-builder rebuilt node_modules for Electron, the default is right.
    expect(nativeOptions({ versions: { node: '22.20.0', electron: '45.4.1' }, env: {} })).toEqual({});
  });

  it('loads from a folder of its own through nativeBinding', () => {
    const dir = tmpDir('native');
    const copy = path.join(dir, 'better_sqlite3.node');
    copyFileSync(nodeBuild, copy);
    const db = connect(path.join(dir, 'x.sqlite'), { nativeBinding: copy });
    expect(db.prepare('SELECT sqlite_version() AS v').get()).toEqual({ v: expect.stringMatching(/^3\./) });
    db.close();
  });

  it('that cannot be loaded (another runtime’s, another machine’s) is named, with what to do', () => {
    const dir = tmpDir('native');
    const bad = path.join(dir, 'better_sqlite3.node');
    writeFileSync(bad, 'not a shared library');
    expect(() => connect(path.join(dir, 'x.sqlite'), { nativeBinding: bad })).toThrow(
      /^better-sqlite3's native module cannot be loaded by this Node v\d+.*file too short.*Run `npm rebuild better-sqlite3`/,
    );
  });
});
