/** Child processes and files for the store's tests. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from '../helpers/plugins';

export const CHILD = path.join(REPO, 'test', 'store', 'child.ts');

export interface Child {
  proc: ChildProcess;
  /** Lines printed on stdout so far. */
  lines: string[];
  stderr(): string;
  /** Resolves once `pred` holds for the lines printed, or rejects after `ms`. */
  waitFor(pred: (lines: string[]) => boolean, ms: number): Promise<void>;
  /** Resolves when the process has exited and its output is read, or rejects after `ms`. */
  closed(ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs test/store/child.ts, or another script of the tests (through tsx), with `args`. */
export function startChild(args: string[], script = CHILD, env: NodeJS.ProcessEnv = process.env): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'pipe'],
    env,
  });
  const lines: string[] = [];
  let partial = '';
  let err = '';
  const waiters = new Set<() => void>();
  proc.stdout?.setEncoding('utf8').on('data', (d: string) => {
    const parts = (partial + d).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    for (const w of waiters) w();
  });
  proc.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('close', (code, signal) => resolve({ code, signal })),
  );
  return {
    proc,
    lines,
    stderr: () => err,
    waitFor: (pred, ms) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (!pred(lines)) return;
          waiters.delete(check);
          clearTimeout(t);
          resolve();
        };
        const t = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `child ${args.join(' ')}: condition not met in ${ms} ms; stdout ${lines.length} lines; stderr: ${err}`,
            ),
          );
        }, ms);
        waiters.add(check);
        void done.then(() => check());
        check();
      }),
    closed: (ms) =>
      new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`child ${args.join(' ')} did not exit in ${ms} ms`)), ms);
        void done.then((r) => {
          clearTimeout(t);
          resolve(r);
        });
      }),
  };
}

/** Everything in the store's files as text: the main file and, while open, its WAL. */
export function fileBytes(file: string): string {
  return [file, `${file}-wal`]
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('\n');
}

export function filesIn(dir: string): string[] {
  return readdirSync(dir).sort();
}

/** Mounts a tmpfs of `size` at `dir` when this machine allows it (root, or CAP_SYS_ADMIN). */
export function mountTmpfs(dir: string, size: string): boolean {
  mkdirSync(dir, { recursive: true });
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' }).status === 0;
}

export function unmount(dir: string): void {
  spawnSync('umount', [dir], { stdio: 'ignore' });
}
