/**
 * The path picker's listing (`app.listFolder`): a real folder on disk, read through the back end
 * as the web UI and the desktop app ask for it. Folders come first, dot-files only when asked
 * for, links as what they point to, and a path that is not a readable folder is named with why.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FOLDER_ENTRIES_SHOWN, listFolder } from '../../src/main/service/folders';
import { parseInput } from '../../src/shared/contract';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';

describe('listing a folder for the path picker', () => {
  it('lists folders first, in natural order, without dot-files unless asked, with links as what they point to', async () => {
    const home = tmpDir('list-home');
    for (const d of ['Projects', 'docs 10', 'docs 9', '.config']) mkdirSync(path.join(home, d));
    for (const f of ['notes.md', '.env', 'a.txt']) writeFileSync(path.join(home, f), 'x');
    symlinkSync(path.join(home, 'Projects'), path.join(home, 'work'));
    symlinkSync(path.join(home, 'nowhere'), path.join(home, 'dangling'));

    const r = await listFolder({}, home);
    if (!r.ok) throw new Error(r.message);
    expect(r.listing).toEqual({
      path: home,
      parent: path.dirname(home),
      home,
      entries: [
        { name: 'docs 9', kind: 'directory' },
        { name: 'docs 10', kind: 'directory' },
        { name: 'Projects', kind: 'directory' },
        { name: 'work', kind: 'directory' },
        { name: 'a.txt', kind: 'file' },
        { name: 'notes.md', kind: 'file' },
      ],
      more: 0,
    });
    const hidden = await listFolder({ path: '~', hidden: true }, home);
    expect(hidden.ok && hidden.listing.entries.map((e) => e.name)).toEqual(expect.arrayContaining(['.config', '.env']));
    const inside = await listFolder({ path: '~/Projects' }, home);
    expect(inside).toMatchObject({ ok: true, listing: { path: path.join(home, 'Projects'), entries: [] } });
    expect(await listFolder({ path: '/' }, home)).toMatchObject({ ok: true, listing: { path: '/', parent: null } });
    cleanupFixtures();
  });

  it('names what is wrong with a path that is not a readable folder', async () => {
    const home = tmpDir('list-bad');
    writeFileSync(path.join(home, 'file.txt'), 'x');
    expect(await listFolder({ path: 'relative/path' }, home)).toEqual({
      ok: false,
      code: 'invalid_input',
      message: 'path: relative/path is not an absolute path',
    });
    expect(await listFolder({ path: path.join(home, 'gone') }, home)).toMatchObject({
      ok: false,
      code: 'not_found',
      message: `${path.join(home, 'gone')} does not exist`,
    });
    expect(await listFolder({ path: path.join(home, 'file.txt') }, home)).toMatchObject({
      ok: false,
      message: `${path.join(home, 'file.txt')} is a file, not a folder`,
    });
    expect(parseInput('app.listFolder', { path: 'x'.repeat(5000) }).ok).toBe(false);
    cleanupFixtures();
  });

  it('lists a folder of many entries up to its cap and counts the rest', async () => {
    const home = tmpDir('list-many');
    for (let i = 0; i < FOLDER_ENTRIES_SHOWN + 5; i++) writeFileSync(path.join(home, `f${i}`), '');
    const r = await listFolder({ path: home }, home);
    expect(r.ok && [r.listing.entries.length, r.listing.more]).toEqual([FOLDER_ENTRIES_SHOWN, 5]);
    cleanupFixtures();
  });
});
