/**
 * The terminal `plugboard chat` talks to a person on: a line read with readline (history kept
 * across lines, Ctrl-D ends, Ctrl-C reported), and a single key read in raw mode for an approval
 * prompt. Between reads the terminal is left as it was (cooked), so a Ctrl-C while a turn runs
 * reaches the process as SIGINT. Prompts go to stderr, keeping stdout for the answer.
 */
import readline from 'node:readline';

export type LineRead = { kind: 'line'; text: string } | { kind: 'end' } | { kind: 'interrupt' };

const CTRL_C = '\u0003';
const HISTORY = 200;

export class Terminal {
  /** Newest first, as readline keeps it. */
  private readonly history: string[] = [];

  constructor(
    private readonly input: NodeJS.ReadStream = process.stdin,
    private readonly output: NodeJS.WriteStream = process.stderr,
  ) {}

  /** Whether there is a person to ask: input comes from a terminal. */
  static available(input: NodeJS.ReadStream = process.stdin): boolean {
    return input.isTTY === true;
  }

  /** One line; `end` on Ctrl-D (or the input closing, or `signal`: a SIGTERM), `interrupt` on Ctrl-C. */
  readLine(prompt: string, signal: AbortSignal): Promise<LineRead> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve({ kind: 'end' });
      const rl = readline.createInterface({
        input: this.input,
        output: this.output,
        terminal: true,
        history: [...this.history],
        historySize: HISTORY,
      });
      let settled = false;
      const finish = (r: LineRead): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        rl.close();
        resolve(r);
      };
      const onAbort = (): void => finish({ kind: 'end' });
      signal.addEventListener('abort', onAbort, { once: true });
      rl.on('line', (text) => {
        if (text.trim() && this.history[0] !== text) this.history.unshift(text);
        this.history.length = Math.min(this.history.length, HISTORY);
        finish({ kind: 'line', text });
      });
      rl.on('SIGINT', () => {
        this.output.write('\n');
        finish({ kind: 'interrupt' });
      });
      rl.on('close', () => finish({ kind: 'end' }));
      rl.setPrompt(prompt);
      rl.prompt();
    });
  }

  /**
   * Shows `prompt` and waits for one of `keys` (case-insensitive); other keys are ignored.
   * `interrupt` on Ctrl-C (raw mode turns it into a key), null when `signal` aborts first (the
   * turn ended meanwhile). The prompt shows once the terminal is raw: a key typed as soon as it
   * appears is neither echoed nor held back for a line.
   */
  readKey<K extends string>(prompt: string, keys: readonly K[], signal: AbortSignal): Promise<K | 'interrupt' | null> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(null);
      const input = this.input;
      const wasRaw = input.isRaw;
      const finish = (v: K | 'interrupt' | null): void => {
        input.off('data', onData);
        signal.removeEventListener('abort', onAbort);
        input.setRawMode(wasRaw);
        input.pause();
        resolve(v);
      };
      const onData = (d: Buffer | string): void => {
        const s = d.toString();
        if (s.includes(CTRL_C)) return finish('interrupt');
        const key = keys.find((k) => k === s.toLowerCase());
        if (key) finish(key);
      };
      const onAbort = (): void => finish(null);
      input.setRawMode(true);
      input.on('data', onData);
      signal.addEventListener('abort', onAbort, { once: true });
      input.resume();
      this.output.write(prompt);
    });
  }

  write(text: string): void {
    this.output.write(text);
  }
}
