// An interactive shell in a pty, fed one line per passthrough turn. A turn's answer is the output
// produced until the shell goes quiet; whatever comes later waits for the next turn.
import { killTree } from './kill-tree.mjs';
import { Newlines } from './output.mjs';

const BACKLOG_CHARS = 64 * 1024;

export const QUIET = {
  /** The shell counts as done after this long without output… */
  quietMs: 300,
  /** …once it has said something; a command that says nothing for this long gets a note instead. */
  firstOutputMs: 8000,
  /** A turn never lasts longer than this (the host expects an answer well within 30 s). */
  capMs: 20_000,
};

export class ShellSession {
  static open({ pty, shell, cwd, env, cols = 160, rows = 48 }) {
    return new ShellSession(pty.spawn(shell.file, shell.interactive, { name: 'dumb', cols, rows, cwd, env }));
  }

  constructor(child) {
    this.child = child;
    this.alive = true;
    this.exitCode = null;
    this.backlog = '';
    this.onText = null;
    this.onExit = null;
    const newlines = new Newlines();
    child.onData((chunk) => {
      const text = newlines.push(chunk);
      if (!text) return;
      if (this.onText) this.onText(text);
      else this.backlog = (this.backlog + text).slice(-BACKLOG_CHARS);
    });
    child.onExit(({ exitCode }) => {
      this.alive = false;
      this.exitCode = exitCode;
      this.onExit?.();
    });
  }

  get pid() {
    return this.child.pid;
  }

  /** Writes a line as if typed, and collects its output (without the terminal's echo of it). */
  send(line, onOutput, timing = QUIET) {
    return this.collect(onOutput, timing, line, () => this.child.write(`${line}\r`));
  }

  /** Ctrl-C to the foreground job. */
  interrupt(onOutput, timing = QUIET) {
    return this.collect(onOutput, { ...timing, firstOutputMs: 2000 }, null, () => this.child.write('\x03'));
  }

  /** Output already on its way (the banner and first prompt after opening). */
  settle(onOutput, timing = QUIET) {
    return this.collect(onOutput, { ...timing, firstOutputMs: 3000 }, null, () => {});
  }

  /** Ends the shell and everything started from it. */
  close() {
    if (!this.alive) return;
    this.alive = false;
    killTree(this.child.pid);
  }

  /**
   * @returns {Promise<'quiet'|'no-output'|'cap'|'exited'>} how the turn ended
   */
  collect(onOutput, { quietMs, firstOutputMs, capMs }, echo, start) {
    return new Promise((resolve) => {
      let quiet = null;
      let echoLeft = echo === null ? null : `${echo}\n`;
      let echoSeen = '';
      const timers = [];
      const finish = (how) => {
        for (const t of [...timers, quiet]) clearTimeout(t);
        this.onText = null;
        this.onExit = null;
        resolve(how);
      };
      const deliver = (text) => {
        if (!text) return;
        onOutput(text);
        clearTimeout(quiet);
        quiet = setTimeout(() => finish('quiet'), quietMs);
      };
      this.onText = (text) => {
        if (echoLeft === null) return deliver(text);
        // Terminals echo what is typed; the user already sees their line in the chat.
        echoSeen += text;
        if (echoLeft.startsWith(echoSeen)) {
          if (echoSeen.length === echoLeft.length) echoLeft = null;
          return;
        }
        const rest = echoSeen.startsWith(echoLeft) ? echoSeen.slice(echoLeft.length) : echoSeen;
        echoLeft = null;
        deliver(rest);
      };
      this.onExit = () => finish('exited');
      timers.push(setTimeout(() => quiet === null && finish('no-output'), firstOutputMs));
      timers.push(setTimeout(() => finish('cap'), capMs));
      // Output that arrived between turns is shown first, but does not count as this turn's.
      if (this.backlog) {
        onOutput(this.backlog);
        this.backlog = '';
      }
      if (!this.alive) return finish('exited');
      start();
    });
  }
}
