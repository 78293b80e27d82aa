/**
 * Runs one command of a package's install step (`npm install`, `python -m venv`, `pip install`…)
 * from its plan (sandbox-install.ts: sandboxed with the network where the sandbox works), held to
 * its limits as a plugin is: in control groups of its own where they can be had, else by rlimits
 * and the watch on the whole (limit-watch.ts). An install that forks or fills without end is
 * stopped and says which limit it went over. Every line it writes, stdout and stderr alike, goes
 * to the progress listener as it comes; the last ones are kept for the failure. It runs in its own
 * process group, which a deadline, a cancel or a limit kills whole.
 */
import { spawn } from 'node:child_process';
import { inCgroup } from './cgroups';
import { killGroup } from './group';
import { LimitWatch } from './limit-watch';
import type { LaunchPlan } from './plan';

export interface StepResult {
  ok: boolean;
  code: number | null;
  signal: string | null;
  /** The last lines it wrote, oldest first. */
  tail: string[];
  /** Set when the deadline or a cancel ended it. */
  stopped?: 'timeout' | 'cancelled';
  /** Set when it went over one of its limits: which, and by how much. */
  breach?: string;
  /** It could not be started at all (no such program, no control group to hold it). */
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
/** A line without an end for this long is still a line (a progress bar, a dump). */
const LONGEST_LINE = 65_536;

export function runInstallStep(plan: LaunchPlan & { ok: true }, opts: StepOptions): Promise<StepResult> {
  const limited = plan.limits ? inCgroup(plan.limits, 'install', plan) : null;
  if (limited === false)
    return Promise.resolve({
      ok: false,
      code: null,
      signal: null,
      tail: [],
      spawnError: 'could not make the control group that holds its limits',
    });
  const { file, args } = limited ?? plan;
  return new Promise((resolve) => {
    const tail: string[] = [];
    let stopped: StepResult['stopped'];
    let breach: string | undefined;
    const child = spawn(file, args, {
      cwd: plan.cwd,
      env: plan.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    const watch =
      plan.limits && child.pid !== undefined
        ? new LimitWatch({
            pid: child.pid,
            limits: plan.limits.limits,
            dataDir: plan.limits.dataDir,
            cgroup: limited ? limited.cgroup : null,
            onBreach: (b) => {
              breach ??= b.message;
              killGroup(child.pid, 'SIGKILL');
            },
          })
        : null;
    const kill = (why: 'timeout' | 'cancelled'): void => {
      stopped ??= why;
      killGroup(child.pid, 'SIGKILL');
    };
    const timer = setTimeout(() => kill('timeout'), opts.timeoutMs);
    const onAbort = (): void => kill('cancelled');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.signal?.aborted) kill('cancelled');
    const emit = (raw: string): void => {
      const line = raw.replace(/\s+$/, '');
      if (!line) return;
      opts.onLine?.(line);
      if (NOISE.test(line)) return;
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
    };
    const lines = (): ((chunk: Buffer) => void) => {
      let rest = '';
      return (chunk) => {
        rest += chunk.toString('utf8');
        const parts = rest.split(/\r?\n|\r/);
        rest = parts.pop() ?? '';
        if (rest.length > LONGEST_LINE) {
          parts.push(rest);
          rest = '';
        }
        for (const l of parts) emit(l);
      };
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
      // The kernel may have stopped a process of it for memory, which the tail or the group says.
      breach ??= watch?.atExit(tail)?.message;
      watch?.dispose();
      resolve({
        ok: code === 0 && !stopped && !spawnError && !breach,
        code,
        signal,
        tail,
        ...(stopped ? { stopped } : {}),
        ...(breach ? { breach } : {}),
        ...(spawnError ? { spawnError } : {}),
      });
    });
  });
}
