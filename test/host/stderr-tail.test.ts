/**
 * A failure's last stderr lines hold the real error, not npm's notice that a newer npm exists:
 * `npx` writes that five-line notice after the error of the program it ran, and it used to push
 * the error out of the lines a person is shown. The log keeps every line.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers/plugins';
import { useTestHost } from '../helpers/host';

const host = useTestHost();

describe('the stderr lines of a failure', () => {
  it('keep the error when npm’s update notice follows it', async () => {
    const dir = tmpDir('npm-notice');
    const lines = [
      'Error: Cannot find module ./missing-config.json',
      'npm notice',
      'npm notice New minor version of npm available! 11.19.1 -> 11.21.2',
      'npm notice Changelog: https://github.com/npm/cli/releases/tag/v11.21.2',
      'npm notice To update run: npm install -g npm@11.21.2',
      'npm notice',
    ];
    writeFileSync(
      path.join(dir, 'server.mjs'),
      `for (const l of ${JSON.stringify(lines)}) console.error(l);\nprocess.exit(1);\n`,
    );
    writeFileSync(
      path.join(dir, 'plugboard.json'),
      JSON.stringify({ id: 'npm-notice', protocol: 'mcp', command: ['node', 'server.mjs'] }),
    );
    const sup = await host.addDir(dir);
    const r = await sup.start();
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.details?.stderrTail?.at(-1)).toBe('Error: Cannot find module ./missing-config.json');
    expect(r.details?.stderrTail?.some((l) => l.startsWith('npm notice'))).toBe(false);
    // Nothing is lost: the plugin's log has the notice.
    expect(host.logs.some((l) => l.pluginId === 'npm-notice' && l.message.includes('npm notice To update run'))).toBe(
      true,
    );
  });
});
