/**
 * Runs one command of a package install (`npm install`, `python -m venv`, `pip install`…) from
 * its plan (host's installStepPlan: sandboxed with the network where the sandbox works), passing
 * every line it writes, stdout and stderr alike, to the progress listener as it comes, and
 * keeping the last ones for the failure. It runs in its own process group, which a deadline or
 * a cancel kills whole.
 */
import { spawn } from 'node:child_process';
import type { LaunchPlan } from '../../host';

export interface StepResult {
  ok: boolean;
  code: number | null;
  signal: string | null;
  /** The last lines it wrote, oldest first. */
  tail: string[];
  /** Set when the deadline or a cancel ended it. */
  stopped?: 'timeout' | 'cancelled';
  /** It could not be started at all (no such program). */
  spawnError?: string;
}

export interface StepOptions {
  /** Each line the step writes, as it comes. */
  onLine?: (line: string) => void;
  timeoutMs: number;
  signal?: AbortSignal;
}

const TAIL_LINES = 30;
/** npm's notices (a newer npm exists…) are not what went wrong: they never take a place in the tail. */
const NOISE = /^npm (notice|warn (deprecated|config))\b/i;

export function runStep(plan: LaunchPlan, opts: StepOptions): Promise<StepResult> {
  return new Promise((resolve) => {
    const tail: string[] = [];
    let stopped: StepResult['stopped'];
    const child = spawn(plan.file, plan.args, {
      cwd: plan.cwd,
      env: plan.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    const kill = (why: 'timeout' | 'cancelled'): void => {
      stopped ??= why;
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // gone already
      }
    };
    const timer = setTimeout(() => kill('timeout'), opts.timeoutMs);
    const onAbort = (): void => kill('cancelled');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.signal?.aborted) kill('cancelled');
    const lines = (): ((chunk: Buffer) => void) => {
      let rest = '';
      return (chunk) => {
        rest += chunk.toString('utf8');
        const parts = rest.split(/\r?\n|\r/);
        rest = parts.pop() ?? '';
        // A line without an end for 64 KiB is still a line (a progress bar, a dump).
        if (rest.length > 65_536) {
          parts.push(rest);
          rest = '';
        }
        for (const l of parts) emit(l);
      };
    };
    const emit = (raw: string): void => {
      const line = raw.replace(/\s+$/, '');
      if (!line) return;
      opts.onLine?.(line);
      if (NOISE.test(line)) return;
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
    };
    child.stdout.on('data', lines());
    child.stderr.on('data', lines());
    let spawnError: string | undefined;
    child.on('error', (e) => {
      spawnError = e.message;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve({
        ok: code === 0 && !stopped && !spawnError,
        code,
        signal,
        tail,
        ...(stopped ? { stopped } : {}),
        ...(spawnError ? { spawnError } : {}),
      });
    });
  });
}
