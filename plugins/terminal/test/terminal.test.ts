/**
 * The terminal plugin as a real child process: commands really run in node-pty, and the tests
 * check what a user would: the output, the exit code, the deadline, and that nothing it started
 * outlives it.
 */
import { cpSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  announcedTools,
  cleanup,
  PLUGINS_DIR,
  readManifest,
  REPO,
  shownText,
  startPlugin,
  tempDir,
  type PluginClient,
} from '../../test-helpers.js';

const posix = process.platform !== 'win32';

afterEach(cleanup);

/** Running, and not a zombie waiting to be reaped (which `kill -0` still reports). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (/^\d+ \(.*\) Z/.test(stat)) return false;
  } catch {
    // no /proc (macOS), or the process is gone: kill -0 decides
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function gone(pid: number, withinMs = 3000): Promise<boolean> {
  const end = Date.now() + withinMs;
  while (Date.now() < end) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

function pidIn(text: string, label: string): number {
  const m = new RegExp(`${label}=(\\d+)`).exec(text);
  if (!m) throw new Error(`no ${label}=<pid> in: ${text}`);
  return Number(m[1]);
}

async function openShell(p: PluginClient, cwd?: string): Promise<string> {
  const turn = await p.call('open_shell', cwd ? { cwd } : {});
  expect(turn.complete?.keep_session).toBe(true);
  // The way out is in the result itself, not only in the stream: the model reads the result.
  expect(String(turn.complete?.data)).toMatch(/Type `exit` \(or `\/exit`\) to close the shell/);
  return shownText(turn);
}

describe('terminal', () => {
  it('announces exactly the tools its manifest declares', async () => {
    const p = await startPlugin('terminal');
    expect(await announcedTools(p)).toEqual(readManifest('terminal').functions.map((f) => f.name));
  });

  describe('run', () => {
    it('runs a command, streams its output and completes with the exit code and output tail', async () => {
      const p = await startPlugin('terminal');
      const turn = await p.call('run', { command: 'echo hello from run' });
      expect(shownText(turn)).toContain('hello from run');
      expect(turn.complete?.success).toBe(true);
      expect(turn.complete?.data).toMatchObject({
        exit_code: 0,
        output_tail: expect.stringContaining('hello from run\n'),
        truncated: false,
      });
    });

    it('reports a failing command’s exit code', async () => {
      const p = await startPlugin('terminal');
      const turn = await p.call('run', { command: 'echo oops >&2; exit 7' });
      expect(turn.complete?.data).toMatchObject({ exit_code: 7, output_tail: expect.stringContaining('oops') });
    });

    it('runs in the folder given', async () => {
      const dir = tempDir('term-cwd');
      const p = await startPlugin('terminal');
      const turn = await p.call('run', { command: posix ? 'pwd' : '(Get-Location).Path', cwd: dir });
      expect((turn.complete?.data as { output_tail: string }).output_tail.trim()).toBe(realpathSync(dir));
    });

    it('refuses a working folder that does not exist', async () => {
      const p = await startPlugin('terminal');
      const turn = await p.call('run', { command: 'pwd', cwd: '/definitely/not/here' });
      expect(turn.error).toMatchObject({ code: -32602, message: expect.stringContaining('/definitely/not/here') });
    });

    it('streams output as it arrives, not all at the end', async () => {
      const p = await startPlugin('terminal');
      const id = p.execute('run', { command: 'echo first; sleep 1; echo second' });
      const first = await p.next(
        (m) => m.method === 'stream' && String(m.params?.data).includes('first'),
        5000,
        'the first line',
      );
      expect(String(first.params?.data)).not.toContain('second');
      const seenAt = Date.now();
      const turn = await p.turn(id);
      expect(Date.now() - seenAt).toBeGreaterThan(600);
      expect(shownText(turn)).toContain('second');
    });

    it('streams everything but keeps only the last 64 KiB in the result', async () => {
      const p = await startPlugin('terminal');
      const turn = await p.call('run', { command: 'yes line | head -n 20000' }, { timeoutMs: 15_000 });
      const streamed = shownText(turn);
      expect(streamed.split('line\n').length - 1).toBe(20000);
      const data = turn.complete?.data as { output_tail: string; truncated: boolean };
      expect(data.truncated).toBe(true);
      expect(data.output_tail.length).toBe(64 * 1024);
      expect(data.output_tail.endsWith('line\n')).toBe(true);
    });

    it.runIf(posix)('kills the command and its children when the timeout passes', async () => {
      const p = await startPlugin('terminal');
      const id = p.execute('run', { command: 'echo SHELL=$$; sleep 30 & echo CHILD=$!; wait', timeout_ms: 1000 });
      const started = Date.now();
      const turn = await p.turn(id, 6000);
      // The command sleeps 30 s: the 1 s timeout, not the command, ended the turn.
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(turn.error).toMatchObject({ code: -2, message: expect.stringContaining('1 s') });
      const text = shownText(turn);
      expect(await gone(pidIn(text, 'SHELL'))).toBe(true);
      expect(await gone(pidIn(text, 'CHILD'))).toBe(true);
    });
  });

  describe.runIf(posix)('node-pty outside the checkout', () => {
    /** A copy of the plugin where Node's own resolution cannot find node-pty, as in an installed app. */
    function copyOutsideRepo(): string {
      const base = tempDir('term-copy');
      mkdirSync(path.join(base, 'plugins'));
      cpSync(path.join(PLUGINS_DIR, 'terminal'), path.join(base, 'plugins', 'terminal'), { recursive: true });
      symlinkSync(path.join(REPO, 'sdk'), path.join(base, 'sdk'));
      return path.join(base, 'plugins', 'terminal');
    }

    it('loads node-pty from PLUGBOARD_NODE_MODULES', async () => {
      const p = await startPlugin('terminal', { dir: copyOutsideRepo() });
      expect((await p.call('run', { command: 'echo via the app copy' })).complete?.data).toMatchObject({
        exit_code: 0,
      });
    });

    it('says what is missing when node-pty cannot be loaded, and keeps running', async () => {
      const p = await startPlugin('terminal', { dir: copyOutsideRepo(), env: { PLUGBOARD_NODE_MODULES: '' } });
      const turn = await p.call('run', { command: 'echo hi' });
      expect(turn.error?.message).toMatch(/needs node-pty[\s\S]*PLUGBOARD_NODE_MODULES is not set/);
      expect((await p.response(p.request('ping', { timestamp: 1 }))).result).toEqual({ timestamp: 1 });
    });
  });

  describe.runIf(posix)('open_shell', () => {
    it('says how to leave, runs each input in the same shell, and closes on exit', async () => {
      const dir = tempDir('term-shell');
      const p = await startPlugin('terminal');
      await openShell(p);

      const hello = await p.input('echo hello shell');
      expect(hello.ack.result).toEqual({ acknowledged: true });
      expect(hello.turn.complete?.keep_session).toBe(true);
      const shown = shownText(hello.turn);
      expect(shown).toContain('hello shell');
      expect(shown).not.toContain('echo hello shell'); // the terminal's echo of the line is dropped

      await p.input(`cd '${dir}'`);
      const pwd = await p.input('pwd');
      expect(shownText(pwd.turn)).toContain(realpathSync(dir)); // state carries over between turns

      const pid = pidIn(shownText((await p.input('echo SHELL=$$')).turn), 'SHELL');
      const bye = await p.input('exit');
      expect(bye.turn.complete).toMatchObject({ success: true, keep_session: false });
      expect(String(bye.turn.complete?.data)).toMatch(/closed/i);
      expect(await gone(pid)).toBe(true);
    });

    it('waits for a slow command’s output, and /ctrl-c interrupts a running one', async () => {
      const p = await startPlugin('terminal');
      await openShell(p);
      const slow = await p.input('sleep 1; echo finally');
      expect(shownText(slow.turn)).toContain('finally');

      const long = await p.input('echo started; sleep 30; echo never');
      expect(shownText(long.turn)).toContain('started');
      await p.input('/ctrl-c');
      const after = await p.input('echo still here');
      expect(shownText(after.turn)).toContain('still here');
      expect(shownText(after.turn)).not.toContain('never');
    });

    it('ends the session when the shell itself exits', async () => {
      const p = await startPlugin('terminal');
      await openShell(p);
      const { turn } = await p.input('exit 3');
      expect(turn.complete).toMatchObject({ keep_session: false, data: expect.stringContaining('code 3') });
      const again = await p.input('echo anyone?');
      expect(again.turn.complete).toMatchObject({
        keep_session: false,
        data: expect.stringContaining('No shell is open'),
      });
    });

    it('kills the shell and what runs in it when the plugin shuts down', async () => {
      const p = await startPlugin('terminal');
      await openShell(p);
      const text = shownText((await p.input('sleep 60 & echo SHELL=$$ CHILD=$!')).turn);
      const shell = pidIn(text, 'SHELL');
      const child = pidIn(text, 'CHILD');
      expect(isAlive(child)).toBe(true);
      expect(await p.stop()).toEqual({ code: 0, signal: null });
      expect(await gone(shell)).toBe(true);
      expect(await gone(child)).toBe(true);
    });
  });
});
