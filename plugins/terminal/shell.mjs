// Which shell runs commands, with which arguments, in which environment.
import { existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode, PluginError } from '../../sdk/node/dist/index.js';

/**
 * The shell: the `shell` setting (TERMINAL_SHELL), else $SHELL, else bash, else sh; on Windows
 * the setting, else PowerShell. `run(command)` gives a one-shot invocation (`bash -lc`),
 * `interactive` the arguments of a session.
 */
export function chooseShell(env = process.env, platform = process.platform) {
  const wanted = env.TERMINAL_SHELL?.trim();
  if (platform === 'win32') {
    const file = wanted || 'powershell.exe';
    const base = path.basename(file).toLowerCase();
    if (base === 'cmd' || base === 'cmd.exe') {
      return { file, name: 'cmd', run: (c) => ['/d', '/s', '/c', c], interactive: ['/d'] };
    }
    return {
      file,
      name: base.replace(/\.exe$/, ''),
      run: (c) => ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', c],
      interactive: ['-NoLogo', '-NoProfile'],
    };
  }
  const file = wanted || env.SHELL || ['/bin/bash', '/usr/bin/bash', '/bin/sh'].find((f) => existsSync(f)) || '/bin/sh';
  return { file, name: path.basename(file), run: (c) => ['-lc', c], interactive: ['-i'] };
}

/**
 * What commands see. Output goes to a chat, not a terminal: TERM=dumb and NO_COLOR ask programs
 * for plain text (nothing is stripped afterwards), and pagers are `cat` so that `git log` or
 * `man` cannot sit waiting for a key nobody can press.
 */
export function commandEnv(env = process.env) {
  const out = {
    ...env,
    TERM: 'dumb',
    NO_COLOR: '1',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    MANPAGER: 'cat',
    SYSTEMD_PAGER: '',
  };
  for (const k of Object.keys(out)) if (k.startsWith('PLUGBOARD_') || k === 'TERMINAL_SHELL') delete out[k];
  return out;
}

/** A working directory the user named (with ~ expanded), or the home folder. */
export function resolveCwd(cwd, env = process.env) {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  if (cwd === undefined || cwd === null || cwd === '') return home;
  if (typeof cwd !== 'string') throw new PluginError('"cwd" must be a folder path', ErrorCode.InvalidParams);
  const expanded = cwd === '~' ? home : cwd.startsWith('~/') ? path.join(home, cwd.slice(2)) : cwd;
  const dir = path.resolve(home, expanded);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new PluginError(`The folder ${dir} does not exist.`, ErrorCode.InvalidParams);
  }
  if (!isDir) throw new PluginError(`${dir} is not a folder.`, ErrorCode.InvalidParams);
  return dir;
}
