// One command in a pty: output streamed as it arrives, the tail kept for the result, and a
// deadline after which the command and everything it started are killed.
import { randomBytes } from 'node:crypto';
import { killGroup, killTree } from './kill-tree.mjs';
import { Newlines, partialSuffix, signalName, Tail } from './output.mjs';

export const TAIL_CHARS = 64 * 1024;

/**
 * On POSIX the command runs under a small /bin/sh wrapper that prints an end marker with the
 * exit status and then waits. Why: when every process on a pty exits, Linux may discard output
 * still in the pty's buffer before node-pty reads it (the last ~10 KB of a fast command went
 * missing in testing). Output before the marker is complete by construction; once the marker
 * arrives the plugin ends the wrapper and any background jobs itself. The marker carries a
 * random nonce and is the only thing removed from the output.
 */
const WRAPPER = 'm=$1; shift; "$@"; s=$?; printf "%s%s\\n" "$m" "$s"; read -r _; exit "$s"';

/**
 * @returns {Promise<{exitCode: number|null, signal: string|null, timedOut: boolean, aborted: boolean, tail: string, truncated: boolean, outputChars: number, durationMs: number}>}
 */
export function runInPty({ pty, shell, command, cwd, env, timeoutMs, signal, onOutput, cols = 160, rows = 48 }) {
  const started = Date.now();
  const posix = process.platform !== 'win32';
  const marker = posix ? `\u001b]plugboard-exit;${randomBytes(8).toString('hex')};` : null;
  const [file, args] = posix
    ? ['/bin/sh', ['-c', WRAPPER, 'sh', marker, shell.file, ...shell.run(command)]]
    : [shell.file, shell.run(command)];
  const child = pty.spawn(file, args, { name: 'dumb', cols, rows, cwd, env });
  const tail = new Tail(TAIL_CHARS);
  const newlines = new Newlines();
  let pending = '';
  let markedStatus = null;
  let timedOut = false;
  let aborted = false;

  const emit = (text) => {
    if (!text) return;
    tail.push(text);
    onOutput(text);
  };

  return new Promise((resolve) => {
    const stop = () => killTree(child.pid);
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const data = child.onData((chunk) => {
      if (markedStatus !== null) return;
      const text = newlines.push(chunk);
      if (!marker) return emit(text);
      pending += text;
      const at = pending.indexOf(marker);
      if (at !== -1) {
        const m = /^(\d+)\n/.exec(pending.slice(at + marker.length));
        emit(pending.slice(0, at));
        pending = pending.slice(at);
        if (!m) return; // the status has not fully arrived yet
        markedStatus = Number(m[1]);
        pending = '';
        // Everything the command printed is in; end the waiting wrapper and any background jobs.
        killGroup(child.pid);
        return;
      }
      const keep = partialSuffix(pending, marker);
      emit(pending.slice(0, pending.length - keep));
      pending = pending.slice(pending.length - keep);
    });
    child.onExit(({ exitCode, signal: sig }) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      data.dispose();
      if (markedStatus === null) emit(pending + newlines.flush());
      // Background jobs the command left behind end with it: a chat tool must not leak processes.
      killGroup(child.pid);
      const killed = timedOut || aborted;
      resolve({
        exitCode: killed ? null : (markedStatus ?? exitCode),
        signal: killed ? 'SIGKILL' : markedStatus === null ? signalName(sig) : null,
        timedOut,
        aborted,
        tail: tail.value,
        truncated: tail.truncated,
        outputChars: tail.total,
        durationMs: Date.now() - started,
      });
    });
  });
}
