/** Runs the real `plugboard` command as a child process and collects what it printed. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO } from './plugins';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: Array<Record<string, unknown>>;
}

/** Runs the real `plugboard` command as a child process; `root` is the checkout (default: this one). */
export function plugboard(
  args: string[],
  /** `env`: more environment for the command (the person's npm settings, say). */
  opts: { npx?: boolean; timeoutMs?: number; root?: string; cwd?: string; env?: Record<string, string> } = {},
): Promise<Run> {
  const [cmd, pre] = opts.npx
    ? ['npx', ['--no-install', 'plugboard']]
    : [process.execPath, [path.join(opts.root ?? REPO, 'bin', 'plugboard.mjs')]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd as string, [...(pre as string[]), ...args], {
      cwd: opts.cwd ?? REPO,
      env: { ...process.env, NO_COLOR: '1', ...opts.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`plugboard ${args.join(' ')} did not finish; stderr: ${stderr}`));
    }, opts.timeoutMs ?? 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const lines = args.includes('--json')
        ? stdout
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, unknown>)
        : [];
      resolve({ code, stdout, stderr, lines });
    });
  });
}
