/**
 * The PATH of the user's login shell. An app started from a dock or a menu inherits the desktop
 * session's PATH (on macOS `/usr/bin:/bin:/usr/sbin:/sbin`), without the folders of Homebrew, nvm,
 * pyenv or uv that the user's shell start-up files add: `spawn npx ENOENT`. The fix is the one
 * `shell-env` and `fix-path` use: run the login shell once, interactively so its rc files are
 * read, have it print its environment between markers, and keep the PATH.
 *
 * Written here rather than taken from `shell-env` because that library waits on the shell with no
 * deadline: a start-up file that prompts, or starts tmux, would hang every launch behind it. Here
 * the shell runs in its own process group with stdin closed, under a deadline after which the
 * whole group is killed, and its answer (or its failure) is kept for the life of the process.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { killGroup } from './group';

export type LoginPath =
  { ok: true; path: string; shell: string; ms: number } | { ok: false; shell: string; reason: string };

export interface LoginPathOptions {
  /** The shell to run; default the user's login shell from the password database, else $SHELL. */
  shell?: string;
  /** Environment the shell starts with (HOME decides which start-up files it reads). */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  platform?: NodeJS.Platform;
}

/** Long enough for a heavy zsh setup (oh-my-zsh with plugins takes 1-2 s), short enough to wait on once. */
export const LOGIN_SHELL_TIMEOUT_MS = 5000;
const MARK = '__PLUGBOARD_LOGIN_ENV__';
const MAX_OUTPUT = 1024 * 1024;

const cache = new Map<string, Promise<LoginPath>>();

export function defaultShell(env: NodeJS.ProcessEnv = process.env): string {
  let fromPasswd: string | null = null;
  try {
    fromPasswd = os.userInfo().shell;
  } catch {
    // no password entry (containers): fall back to $SHELL
  }
  return fromPasswd || env.SHELL || '/bin/sh';
}

/** The login shell's PATH, computed once per shell and home for the life of the process. */
export function loginShellPath(opts: LoginPathOptions = {}): Promise<LoginPath> {
  const platform = opts.platform ?? process.platform;
  const shell = opts.shell ?? defaultShell(opts.env);
  if (platform === 'win32')
    return Promise.resolve({
      ok: false,
      shell,
      reason: 'Windows programs get the user PATH from the registry; there is no login shell to ask',
    });
  const env = opts.env ?? process.env;
  // The home decides which start-up files the shell reads.
  const key = `${shell}\0${env.HOME ?? ''}`;
  let p = cache.get(key);
  if (!p) {
    p = runShell(shell, env, opts.timeoutMs ?? LOGIN_SHELL_TIMEOUT_MS);
    cache.set(key, p);
  }
  return p;
}

function runShell(shell: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<LoginPath> {
  const started = Date.now();
  return new Promise((resolve) => {
    let out = '';
    let settled = false;
    const finish = (r: LoginPath): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    // `command env` avoids aliases or functions named env; the markers cut away whatever the
    // start-up files print themselves (banners, prompts).
    const script = `printf '%s' '${MARK}'; command env; printf '%s' '${MARK}'; exit`;
    const child = spawn(shell, ['-ilc', script], {
      // Oh My Zsh's auto-update and tmux auto-start would block or take over the shell.
      env: { ...env, DISABLE_AUTO_UPDATE: 'true', ZSH_TMUX_AUTOSTARTED: 'true', ZSH_TMUX_AUTOSTART: 'false' },
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    const timer = setTimeout(() => {
      killGroup(child.pid, 'SIGKILL');
      finish({
        ok: false,
        shell,
        reason: `the login shell ${shell} did not print its environment within ${timeoutMs} ms`,
      });
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      out += d;
      if (out.length > MAX_OUTPUT) {
        killGroup(child.pid, 'SIGKILL');
        finish({ ok: false, shell, reason: `the login shell ${shell} printed more than 1 MiB` });
      }
    });
    child.on('error', (e) =>
      finish({ ok: false, shell, reason: `could not run the login shell ${shell}: ${e.message}` }),
    );
    child.on('close', (code) => {
      // Whatever the start-up files left running in the group goes with it: no orphans.
      killGroup(child.pid, 'SIGKILL');
      const parts = out.split(MARK);
      const body = parts.length >= 3 ? (parts[1] as string) : null;
      const line = body?.split('\n').find((l) => l.startsWith('PATH='));
      if (!line) {
        finish({ ok: false, shell, reason: `the login shell ${shell} exited (code ${code}) without printing a PATH` });
        return;
      }
      finish({ ok: true, shell, path: line.slice('PATH='.length).trim(), ms: Date.now() - started });
    });
  });
}
