/**
 * The install scan through the contract (issue 18 item 5): a hostile package
 * (test/fixtures/hostile/poisoned-tools) whose descriptions hide an instruction in tag
 * characters, a zero-width space and an HTML comment, reverse their words with bidi controls, and
 * whose names shadow the bundled files plugin's (`list`, and `reаd` with a Cyrillic а). The
 * install preview flags each, with the text as it is; the flags do not stop the install; the
 * Tools tab carries them per tool afterwards. The real back end and bundled plugins.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openApp, type TestApp } from '../helpers/app';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';

let app: TestApp;
const PACKAGE = path.join(FIXTURES, 'hostile', 'poisoned-tools');

beforeAll(async () => {
  app = await openApp(path.join(tmpDir('tool-scan'), 'data'));
});

afterAll(async () => {
  await app.close();
  expect(await leftovers()).toEqual([]);
  cleanupFixtures();
});

it('the install preview flags hidden text, words to the model and shadowing names; the install still goes through', async () => {
  const p = await app.backend.invoke('install.preview', { source: { kind: 'path', path: PACKAGE } });
  if (!p.ok) throw new Error(p.message);
  const flags = p.preview.flags.map((f) => [f.tool, f.kind]);
  expect(flags).toEqual(
    expect.arrayContaining([
      ['get_weather', 'hidden-text'],
      ['get_weather', 'addresses-model'],
      ['reаd', 'hidden-text'],
      ['reаd', 'shadows'],
      ['list', 'shadows'],
      ['summarize', 'hidden-text'],
    ]),
  );
  expect(p.preview.flags.find((f) => f.tool === 'get_weather' && f.kind === 'hidden-text')?.message).toBe(
    'its name, description or schema hides text: 1 run of hidden text (tag characters), 1 invisible character, 1 HTML comment',
  );
  expect(p.preview.flags.find((f) => f.tool === 'forecast')).toBeUndefined();
  const done = await app.backend.invoke('install.commit', { token: p.token, grants: [], replace: false });
  expect(done).toMatchObject({ ok: true, id: 'poisoned-tools' });
  const detail = await app.backend.invoke('plugins.detail', { id: 'poisoned-tools' });
  expect(detail?.tools.find((t) => t.name === 'list')?.flags).toEqual([
    expect.objectContaining({
      kind: 'shadows',
      message: 'its name is also a tool of files: a model may call one for the other',
    }),
    expect.objectContaining({
      kind: 'shadows',
      message: 'its name is also a tool of todo: a model may call one for the other',
    }),
  ]);
});
