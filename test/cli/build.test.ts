/**
 * The `plugboard` command runs a build of the CLI (scripts/build-cli.mjs) and never an out-of-date
 * one. These cases work on a copy of the checkout's CLI sources, so that they can change a source
 * or break the build without touching the checkout the other tests run.
 */
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { plugboard } from '../helpers/cli';
import { cleanupFixtures, REPO, tmpDir } from '../helpers/plugins';

afterAll(cleanupFixtures);

/** A checkout with what the CLI is built from, and the real node_modules (esbuild, tsx). */
function checkoutCopy(): string {
  const root = tmpDir('cli-build');
  for (const p of ['bin', 'scripts/build-cli.mjs', 'package.json', 'tsconfig.node.json', 'tsconfig.base.json', 'src']) {
    cpSync(path.join(REPO, p), path.join(root, p), { recursive: true });
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
  return root;
}

describe('the built plugboard command', () => {
  it('builds itself when there is no build, and rebuilds when a source changed, saying so', async () => {
    const root = checkoutCopy();
    const first = await plugboard(['--help'], { root });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('plugboard: the CLI is not built yet; building it\n');
    expect(first.stdout).toMatch(/^Usage: plugboard <command>/);
    const again = await plugboard(['--help'], { root });
    expect(again.stderr).toBe('');
    expect(again.stdout).toBe(first.stdout);

    // An edit shows in the very next call.
    const help = path.join(root, 'src', 'main', 'cli', 'help.ts');
    writeFileSync(
      help,
      readFileSync(help, 'utf8').replace('Calls one function of a plugin', 'Calls exactly one function of a plugin'),
    );
    const edited = await plugboard(['call', '--help'], { root });
    expect(edited.code).toBe(0);
    expect(edited.stderr).toBe('plugboard: src/main/cli/help.ts changed since the CLI was built; building it\n');
    expect(edited.stdout).toMatch(/^Calls exactly one function of a plugin/m);
  });

  it('runs the sources through tsx, saying so, when the CLI cannot be built', async () => {
    const root = checkoutCopy();
    writeFileSync(path.join(root, 'out'), 'a file where the build folder would go');
    const r = await plugboard(['call', '--help'], { root });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^plugboard: the CLI is not built yet; building it\nplugboard: building the CLI failed \(.*ENOTDIR.*\); running the sources through tsx\n$/,
    );
    expect(r.stdout).toMatch(/^Usage: plugboard call <plugin> <function>/);
  });

  it('ends quietly when the reader of its output has gone, as `plugboard … | head` does', async () => {
    const child = spawn(process.execPath, [path.join(REPO, 'bin', 'plugboard.mjs'), '--help'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy(); // closed before the command writes a byte
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
  });
});
