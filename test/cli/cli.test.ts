import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { plugboard } from '../helpers/cli';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';

afterAll(cleanupFixtures);

const fx = (name: string) => path.join(FIXTURES, name);
/**
 * Most fixtures share code in test/fixtures/lib, outside their folders, which the sandbox a
 * plugin run from a path gets (as once installed) does not show: those run as they are.
 */
const SHARES_LIB = ['--no-sandbox'];

describe('plugboard CLI', () => {
  it('prints help, and runs through npx in the checkout', async () => {
    const r = await plugboard(['--help'], { npx: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: plugboard <command>/);
    expect(r.stdout).toMatch(/call\s+call one function/);
    const c = await plugboard(['call', '--help']);
    expect(c.code).toBe(0);
    expect(c.stdout).toMatch(/--input TEXT/);
  });

  it('exits 2 on usage errors, saying what was wrong', async () => {
    const none = await plugboard([]);
    expect(none.code).toBe(2);
    const missing = await plugboard(['call', fx('gassist-node')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing <plugin> and <function>/);
    const badJson = await plugboard(['call', fx('gassist-node'), 'echo', '--args', '{text:']);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toMatch(/--args is not valid JSON/);
    const unknown = await plugboard(['launch']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "launch"/);
  });

  it('streams a call as JSON lines and ends with complete', async () => {
    const r = await plugboard(['call', fx('gassist-node'), 'count', '--args', '{"n":3}', '--json', ...SHARES_LIB]);
    expect(r.code).toBe(0);
    const kinds = r.lines.map((l) => l.type);
    expect(kinds.filter((k) => k === 'stream')).toHaveLength(3);
    expect(r.lines.filter((l) => l.type === 'stream').map((l) => l.data)).toEqual(['1\n', '2\n', '3\n']);
    expect(kinds).toContain('health');
    expect(r.lines.at(-1)).toEqual({ type: 'complete', success: true, data: 'counted to 3', keep_session: false });
  });

  it('prints text for people: chunks as they come, then the result', async () => {
    const r = await plugboard(['call', fx('rterm-echo'), 'upper', '--args', '{"text":"quiet"}', ...SHARES_LIB]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('QUIET\n');
    const s = await plugboard([
      'call',
      fx('planner-executor'),
      'execute_task',
      '--args',
      '{"prompt":"x","chunks":2}',
      ...SHARES_LIB,
    ]);
    expect(s.stdout.startsWith('part 1 part 2 \n')).toBe(true);
  });

  it('exits 1 with the failure code on a failed call, as the last JSON line', async () => {
    const r = await plugboard(['call', fx('gassist-python'), 'no_such_function', '--json']);
    expect(r.code).toBe(1);
    expect(r.lines.at(-1)).toEqual(expect.objectContaining({ type: 'error', code: 'unknown_tool' }));
    const human = await plugboard(['call', fx('mehrhof-provider'), 'provider.parse', '--args', '{"input":"bad"}']);
    expect(human.code).toBe(1);
    // Its own line (a root notice may come first, when the tests run as root).
    expect(human.stderr).toMatch(/^plugin_error: Invalid format/m);
  });

  it('holds a passthrough conversation with --input turns', async () => {
    const r = await plugboard([
      'call',
      fx('gassist-node'),
      'start_conversation',
      '--input',
      'hello',
      '--input',
      'exit',
      '--json',
      ...SHARES_LIB,
    ]);
    expect(r.code).toBe(0);
    const completes = r.lines.filter((l) => l.type === 'complete');
    expect(completes.map((c) => [c.data, c.keep_session])).toEqual([
      [expect.stringMatching(/Talking about anything/), true],
      ['hello', true],
      ['Bye!', false],
    ]);
  });

  it('hints at --input only after the last turn, when no turn is left queued', async () => {
    const queued = await plugboard([
      'call',
      fx('gassist-node'),
      'start_conversation',
      '--input',
      'hello',
      ...SHARES_LIB,
    ]);
    expect(queued.code).toBe(0);
    expect(queued.stderr.match(/send the next turn with --input/g)).toHaveLength(1);
    const none = await plugboard([
      'call',
      fx('gassist-node'),
      'start_conversation',
      '--input',
      'hello',
      '--input',
      'exit',
      ...SHARES_LIB,
    ]);
    expect(none.stderr).not.toMatch(/send the next turn/);
  });

  it('refuses --input turns after the plugin ended the session', async () => {
    const r = await plugboard([
      'call',
      fx('gassist-node'),
      'echo',
      '--args',
      '{"text":"x"}',
      '--input',
      'more',
      '--json',
      ...SHARES_LIB,
    ]);
    expect(r.code).toBe(1);
    expect(r.lines.at(-1)).toEqual(
      expect.objectContaining({
        type: 'error',
        code: 'cancelled',
        message: expect.stringMatching(/ended the passthrough session before --input 1 of 1/),
      }),
    );
  });

  it('applies --timeout-ms as the inactivity timeout', async () => {
    const dir = tmpDir('cli-hang');
    writeFileSync(
      path.join(dir, 'plugboard.json'),
      JSON.stringify({ id: 'hangs', protocol: 'gassist-v2', command: ['node', 'plugin.mjs'] }),
    );
    writeFileSync(path.join(dir, 'plugin.mjs'), `import '${path.join(FIXTURES, 'lib', 'gassist.mjs')}';\n`);
    const r = await plugboard(['call', dir, 'hang', '--timeout-ms', '400', '--json', ...SHARES_LIB]);
    expect(r.code).toBe(1);
    expect(r.lines.at(-1)).toEqual(
      expect.objectContaining({ type: 'error', code: 'timeout', message: expect.stringMatching(/400 ms/) }),
    );
  });

  it('names a manifest error and exits 1', async () => {
    const dir = tmpDir('cli-bad');
    writeFileSync(
      path.join(dir, 'manifest.json'),
      JSON.stringify({
        name: 'x',
        executable: 'x.py',
        protocol_version: '2.0',
        functions: [{ name: 'f', parameters: { type: 'array' } }],
      }),
    );
    const r = await plugboard(['call', dir, 'f', '--json']);
    expect(r.code).toBe(1);
    expect(r.lines.at(-1)).toEqual(
      expect.objectContaining({
        type: 'error',
        code: 'manifest_invalid',
        message: expect.stringContaining('functions[0].parameters.type: expected "object"'),
      }),
    );
  });

  it('checks a plugin of each dialect and passes', async () => {
    for (const name of ['gassist-python', 'mehrhof-provider', 'planner-executor', 'rterm-echo', 'mcpb-echo']) {
      // The fixtures share code in test/fixtures/lib, outside their folders: the sandbox would not show it.
      const r = await plugboard(['check', fx(name), '--json', '--no-sandbox']);
      const out = r.lines[0] as { ok: boolean; checks: Array<{ name: string; status: string }> };
      expect([name, r.code, out.ok]).toEqual([name, 0, true]);
      expect(out.checks.map((c) => c.name)).toEqual(
        expect.arrayContaining(['manifest', 'launch', 'handshake', 'tools', 'ping', 'shutdown', 'cleanup']),
      );
    }
  });

  it('fails check for a plugin that ignores shutdown, and for one that leaves children running', async () => {
    const dir = tmpDir('cli-stubborn');
    writeFileSync(
      path.join(dir, 'plugboard.json'),
      JSON.stringify({
        id: 'stubborn',
        protocol: 'gassist-v2',
        command: ['node', 'plugin.mjs'],
        env: { FIXTURE_MODE: 'ignore-shutdown' },
      }),
    );
    // A self-contained copy: on Linux the check runs it in the sandbox, where only its folder shows.
    cpSync(path.join(FIXTURES, 'lib', 'gassist.mjs'), path.join(dir, 'plugin.mjs'));
    const r = await plugboard(['check', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /FAIL {2}shutdown {3}still running 500 ms after shutdown and stdin closing: it needed SIGTERM/,
    );
  });

  it('says when a plugin id is neither installed nor a folder', async () => {
    const data = tmpDir('cli-check-unknown');
    const r = await plugboard(['check', 'no-such-plugin', '--data-dir', data]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`no plugin "no-such-plugin" is bundled or installed (data directory ${data})`);
  });

  it('benchmarks a plugin and reports percentiles as JSON', async () => {
    const r = await plugboard([
      'bench',
      fx('gassist-node'),
      'echo',
      '--args',
      '{"text":"x"}',
      '-n',
      '200',
      '--json',
      ...SHARES_LIB,
    ]);
    expect(r.code).toBe(0);
    const b = r.lines[0] as Record<string, number>;
    expect(b.n).toBe(200);
    expect(b.p50_us).toBeGreaterThan(0);
    expect(b.p95_us).toBeGreaterThanOrEqual(b.p50_us as number);
    expect(b.p99_us).toBeGreaterThanOrEqual(b.p95_us as number);
    expect(b.calls_per_s).toBeGreaterThan(0);
  });
});
