/**
 * Every bundled plugin passes `plugboard check` (the host's own pre-publish checks): manifest,
 * launch, handshake, declared versus announced tools, ping, clean exit, nothing left running.
 */
import { execFile } from 'node:child_process';
import { rmdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLUGINS_DIR, REPO } from './test-helpers.js';

interface CheckReport {
  ok: boolean;
  plugin: string | null;
  checks: Array<{ name: string; status: 'pass' | 'warn' | 'fail' | 'skip'; detail: string }>;
}

function check(id: string): Promise<CheckReport> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(REPO, 'bin', 'plugboard.mjs'), 'check', path.join(PLUGINS_DIR, id), '--json'],
      { cwd: REPO, timeout: 25_000 },
      (err, stdout, stderr) => {
        try {
          resolve(JSON.parse(stdout) as CheckReport);
        } catch {
          reject(
            new Error(`plugboard check ${id} printed no report (${err?.message ?? 'no error'}):\n${stdout}\n${stderr}`),
          );
        }
      },
    );
  });
}

// `check` runs plugins without PLUGBOARD_DATA_DIR, so they fall back to an (empty) <plugin>/.data.
afterAll(() => {
  for (const id of ['hello', 'terminal', 'todo', 'files']) {
    try {
      rmdirSync(path.join(PLUGINS_DIR, id, '.data')); // only ever removes an empty folder
    } catch {
      // absent, or holds someone's data
    }
  }
});

const statuses = (r: CheckReport): Record<string, string> =>
  Object.fromEntries(r.checks.map((c) => [c.name, c.status]));

describe('plugboard check', () => {
  it.each(['hello', 'terminal'])('%s passes every check', async (id) => {
    const report = await check(id);
    expect(report.checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(statuses(report)).toEqual({
      manifest: 'pass',
      launch: 'pass',
      handshake: 'pass',
      tools: 'pass',
      ping: 'pass',
      shutdown: 'pass',
      cleanup: 'pass',
    });
  });

  it('todo passes: its user command is announced as the function that runs it', async () => {
    const report = await check('todo');
    expect(report.ok).toBe(true);
    expect(report.checks.filter((c) => c.status !== 'pass')).toEqual([]);
  });

  it('files reads, and names its required roots setting when it cannot launch without it', async () => {
    const report = await check('files');
    expect(statuses(report).manifest).toBe('pass');
    expect(report.checks.find((c) => c.name === 'launch')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('roots (Shared folders)'),
    });
  });
});
