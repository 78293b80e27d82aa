/**
 * A start that cannot go ahead says why in one line, with what to do, and no stack: a corrupt
 * state.json, for `plugboard serve` and `plugboard plugins`. (A second Plugboard on the same data
 * directory and a stale owner file are shown by test/store/owner.test.ts.) The real command runs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { plugboard } from '../helpers/cli';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';

afterAll(cleanupFixtures);

describe('a corrupt state.json', () => {
  it('stops serve and plugins with one line naming the file and what to do', async () => {
    const root = tmpDir('corrupt-state');
    const data = path.join(root, 'data');
    mkdirSync(data);
    writeFileSync(path.join(data, 'state.json'), '{"version":1,"plugins":{');
    const ui = path.join(root, 'ui');
    mkdirSync(ui);
    writeFileSync(path.join(ui, 'index.html'), '<!doctype html>');
    process.env.PLUGBOARD_RENDERER_DIR = ui;
    for (const args of [
      ['serve', '--data-dir', data],
      ['plugins', 'list', '--data-dir', data],
    ]) {
      const r = await plugboard(args, { timeoutMs: 60_000 });
      expect(r.code).toBe(1);
      // The CLI may first say it rebuilds itself from changed sources: that line is not the error.
      const lines = r.stderr
        .trim()
        .split('\n')
        .filter((l) => !/changed since the CLI was built/.test(l));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toBe(
        `plugboard ${args[0]}: ${path.join(data, 'state.json')} is not valid JSON (${/\((.*)\): fix it/.exec(lines[0] ?? '')?.[1]}): fix it, or move it aside to start over with what it held (it is kept as it is until then)`,
      );
      expect(lines[0]).toMatch(/not valid JSON \(.*position 24\)/);
    }
  });
});
