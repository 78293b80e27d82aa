/**
 * `plugboard check` runs a plugin in the sandbox it gets once installed: a plugin that reaches
 * for code outside its own folder fails there, as it will after installing, and the check says
 * it ran sandboxed; `--no-sandbox` runs it as it is.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { plugboard } from '../helpers/cli';
import { FIXTURES } from '../helpers/plugins';
import { describeSandboxed } from '../helpers/sandbox';

interface Report {
  ok: boolean;
  checks: Array<{ name: string; status: string; detail: string }>;
}

describeSandboxed('plugboard check and the sandbox', () => {
  it('fails, saying it ran sandboxed, a plugin that imports code from outside its folder; passes it with --no-sandbox', async () => {
    // gassist-node imports ../lib/gassist.mjs, a sibling of its folder.
    const boxed = (await plugboard(['check', path.join(FIXTURES, 'gassist-node'), '--json'], { timeoutMs: 25_000 }))
      .lines[0] as unknown as Report;
    expect(boxed.ok).toBe(false);
    expect(boxed.checks.find((c) => c.name === 'launch')?.detail).toMatch(/^bwrap \[sandbox: no network\] -- /);
    expect(boxed.checks.find((c) => c.name === 'handshake')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('it ran in the sandbox'),
    });
    expect(boxed.checks.find((c) => c.name === 'handshake')?.detail).toContain('lib/gassist.mjs');

    const plain = (
      await plugboard(['check', path.join(FIXTURES, 'gassist-node'), '--json', '--no-sandbox'], { timeoutMs: 25_000 })
    ).lines[0] as unknown as Report;
    expect(plain.ok).toBe(true);
    expect(plain.checks.find((c) => c.name === 'launch')?.detail).not.toContain('bwrap');
  });
});
