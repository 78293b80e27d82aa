// Terminal: runs shell commands in a pseudo-terminal, one at a time (`run`) or as an interactive
// session in passthrough mode (`open_shell`). Everything it starts ends when it stops.
import { readFileSync } from 'node:fs';
import { createPlugin, ErrorCode, PluginError } from '../../sdk/node/dist/index.js';
import { FencedStream } from './output.mjs';
import { loadPty } from './pty.mjs';
import { runInPty } from './run-command.mjs';
import { ShellSession } from './session.mjs';
import { chooseShell, commandEnv, resolveCwd } from './shell.mjs';

const manifest = JSON.parse(readFileSync(new URL('./plugboard.json', import.meta.url), 'utf8'));
const describe = (name) => ({ description: manifest.functions.find((f) => f.name === name)?.description ?? '' });

const DEFAULT_TIMEOUT_MS = 120_000;
// Under the host's 5-minute cap for one call, so the plugin reports the timeout itself.
const MAX_TIMEOUT_MS = 290_000;
const KEEP_ALIVE_MS = 10_000;
const EXIT_WORDS = new Set(['exit', '/exit']);

const plugin = createPlugin({ name: manifest.id, version: manifest.version, description: manifest.description });
const running = new Set();
let session = null;

plugin.command(
  'run',
  async ({ command, cwd, timeout_ms }, ctx) => {
    if (typeof command !== 'string' || command.trim() === '')
      throw new PluginError('"command" must be a non-empty string', ErrorCode.InvalidParams);
    const dir = resolveCwd(cwd);
    const timeoutMs = Math.min(Math.max(Number(timeout_ms) || DEFAULT_TIMEOUT_MS, 1000), MAX_TIMEOUT_MS);
    const pty = await loadPty();
    const out = new FencedStream((text) => ctx.stream(text));
    const keepAlive = setInterval(() => out.keepAlive(KEEP_ALIVE_MS), KEEP_ALIVE_MS / 2);
    const job = runInPty({
      pty,
      shell: chooseShell(),
      command,
      cwd: dir,
      env: commandEnv(),
      timeoutMs,
      signal: ctx.signal,
      onOutput: (t) => out.push(t),
    });
    running.add(job);
    let r;
    try {
      r = await job;
    } finally {
      running.delete(job);
      clearInterval(keepAlive);
      out.end();
    }
    const result = {
      exit_code: r.exitCode,
      output_tail: r.tail,
      truncated: r.truncated,
      ...(r.signal ? { signal: r.signal } : {}),
      cwd: dir,
      duration_ms: r.durationMs,
    };
    if (r.timedOut) {
      throw new PluginError(
        `\`${command}\` was still running after ${formatMs(timeoutMs)}, so it was stopped together with everything it started.`,
        ErrorCode.Timeout,
        result,
      );
    }
    if (r.aborted)
      throw new PluginError(
        'The command was stopped because the terminal plugin is shutting down.',
        ErrorCode.PluginError,
        result,
      );
    return result;
  },
  describe('run'),
);

plugin.command(
  'open_shell',
  async ({ cwd }, ctx) => {
    const dir = resolveCwd(cwd);
    const pty = await loadPty();
    session?.close();
    const shell = chooseShell();
    session = ShellSession.open({ pty, shell, cwd: dir, env: commandEnv() });
    // The banner and first prompt go into the result itself, with the way out: whoever reads
    // only the result (the model, for one) still learns how the session ends.
    let banner = '';
    const how = await session.settle((t) => (banner += t));
    if (how === 'exited')
      return endSession(ctx, `The shell exited at once (code ${session.exitCode}). Check the \`shell\` setting.`);
    ctx.keepSession(true);
    const intro =
      `Opened **${shell.name}** in \`${dir}\`. What you type now goes straight to this shell, not to the assistant.\n\n` +
      'Type `exit` (or `/exit`) to close the shell and end the session, `/ctrl-c` to interrupt a running command.';
    return banner.trim() ? `${intro}\n\n\`\`\`\`text\n${banner.replace(/\n?$/, '\n')}\`\`\`\`` : intro;
  },
  describe('open_shell'),
);

plugin.onInput(async (text, ctx) => {
  if (!session || !session.alive) {
    session = null;
    return 'No shell is open. Ask for `open_shell` to start one.';
  }
  const line = text.replace(/\r?\n$/, '');
  const word = line.trim().toLowerCase();
  if (EXIT_WORDS.has(word)) {
    session.close();
    session = null;
    return 'Shell closed. 👋';
  }
  const out = new FencedStream((t) => ctx.stream(t));
  const how =
    word === '/ctrl-c' ? await session.interrupt((t) => out.push(t)) : await session.send(line, (t) => out.push(t));
  out.end();
  if (how === 'exited') return endSession(ctx, `The shell exited (code ${session.exitCode}). Session closed.`);
  ctx.keepSession(true);
  if (how === 'no-output')
    return '_No output yet. If the command is still running, its output will show with your next input; `/ctrl-c` interrupts it._';
  if (how === 'cap')
    return '_Still producing output: the rest will show with your next input; `/ctrl-c` interrupts it._';
  return '';
});

function formatMs(ms) {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function endSession(ctx, message) {
  session?.close();
  session = null;
  ctx.keepSession(false);
  return message;
}

// Shell processes live in their own sessions, out of reach of the host's process-group kill.
plugin.onShutdown(async () => {
  session?.close();
  session = null;
  // Running commands were killed when ctx.signal aborted; let their turns report it.
  await Promise.allSettled([...running]);
});

await plugin.run();
