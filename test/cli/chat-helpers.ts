/**
 * For the `plugboard chat` and `plugboard models` tests: the CLI run against a data directory
 * (bundled plugins, the models it was given), the plugin processes a CLI run left behind, and a
 * CLI run inside a pseudo-terminal (node-pty) for what only a terminal shows: the session's
 * prompt, the approval prompt's keys, Ctrl-C.
 *
 * No language model can run on these machines (no GPU, no weights, no network to a hosted one):
 * the tests point the CLI at the scripted model server (test/model-server), in the test's own
 * process, which the CLI reaches over loopback HTTP as it would reach Ollama or OpenAI.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawn as spawnPty, type IPty } from 'node-pty';
import { plugboard, type Run } from '../helpers/cli';
import { REPO } from '../helpers/plugins';
import { isAlive, type Proc } from '../helpers/processes';

/** `plugboard ARGS --data-dir DATA`, with environment variables set for that run only. */
export async function pbIn(data: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  // The helper spawns with this process's environment: set the variables around the spawn.
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await plugboard([...args, '--data-dir', data], { timeoutMs: 30_000 });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/**
 * Plugin processes started for `data`: the host gives every plugin PLUGBOARD_DATA_DIR inside the
 * data directory, and a plugin's children inherit it. (The test-run mark of helpers/processes.ts
 * is not passed to a CLI's plugins: the host lets only an allow-list of its environment through.)
 */
export function pluginsOf(data: string): Proc[] {
  const mark = `PLUGBOARD_DATA_DIR=${path.join(data, 'plugin-data')}${path.sep}`;
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .flatMap((e) => {
      try {
        const env = readFileSync(`/proc/${e}/environ`, 'utf8').split('\0');
        if (!env.some((v) => v.startsWith(mark)) || !isAlive(Number(e))) return [];
        return [{ pid: Number(e), args: readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0').join(' ').trim() }];
      } catch {
        return []; // gone meanwhile, or not ours to read
      }
    });
}

/** The JSON lines of a run, but the streamed pieces of tool output (their batching varies). */
export function withoutStreams(r: Run): Array<Record<string, unknown>> {
  return r.lines.filter((l) => l.type !== 'tool_stream');
}

/** A CLI run in a pseudo-terminal; every wait is for text to appear, with a deadline. */
export class PtyRun {
  private readonly pty: IPty;
  private text = '';
  private readonly watchers = new Set<() => void>();
  readonly exited: Promise<number>;

  constructor(args: string[]) {
    this.pty = spawnPty(process.execPath, [path.join(REPO, 'bin', 'plugboard.mjs'), ...args], {
      cwd: REPO,
      cols: 300,
      rows: 50,
      env: { ...process.env, NO_COLOR: '1', TERM: 'xterm' } as Record<string, string>,
    });
    this.pty.onData((d) => {
      this.text += d;
      for (const w of [...this.watchers]) w();
    });
    this.exited = new Promise((resolve) => this.pty.onExit((e) => resolve(e.exitCode)));
  }

  /** Everything the terminal showed, escape sequences removed. */
  get output(): string {
    // eslint-disable-next-line no-control-regex
    return this.text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
  }

  /** Waits until `pattern` has been shown `times` times in all; rejects with the screen after `ms`. */
  waitFor(pattern: string | RegExp, times = 1, ms = 30_000): Promise<void> {
    const count = (): number =>
      typeof pattern === 'string'
        ? this.output.split(pattern).length - 1
        : (this.output.match(new RegExp(pattern, 'g')) ?? []).length;
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (count() < times) return;
        clearTimeout(timer);
        this.watchers.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.watchers.delete(check);
        reject(
          new Error(
            `the terminal did not show ${String(pattern)} ${times}× within ${ms} ms; it shows:\n${this.output}`,
          ),
        );
      }, ms);
      this.watchers.add(check);
      check();
    });
  }

  write(keys: string): void {
    this.pty.write(keys);
  }

  /** SIGKILL ends the run if a test failed half-way (its plugins then die with their sandbox). */
  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    try {
      this.pty.kill(signal);
    } catch {
      // exited already
    }
  }
}
