/** `plugboard check --set`: values are checked as `plugins config` checks them, through the real command. */
import { readFileSync, writeFileSync, cpSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { plugboard } from '../helpers/cli';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';

afterAll(cleanupFixtures);

describe('plugboard check --set', () => {
  it('refuses a value of the wrong type, naming the setting, and runs with a good one', async () => {
    const dir = tmpDir('cli-check-set');
    cpSync(path.join(FIXTURES, 'mcpb-echo'), dir, { recursive: true });
    const m = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    m.user_config.count = { type: 'number', title: 'Count', min: 1 };
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(m));
    const bad = await plugboard(['check', dir, '--set', 'count=abc']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('FAIL  launch     --set count: expected a number, got "abc"');
    const good = await plugboard(['check', dir, '--set', 'count=2', '--json']);
    expect([good.code, (good.lines[0] as { ok: boolean }).ok]).toEqual([0, true]);
  }, 60_000);
});
