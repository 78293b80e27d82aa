/**
 * The programs an install step runs (npm and node, a Python, uv), found as Plugboard finds a
 * plugin's command: on its own PATH, then on the login shell's (an app started from a dock has a
 * short PATH). Never on a PATH a plugin's manifest sets: these are Plugboard's own tools.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { loginShellPath, searchPath } from '../../host';

export interface FoundTool {
  /** The path found on PATH (a shim or a link, as the person's terminal would run it). */
  file: string;
  /** Its real path. */
  real: string;
}

export async function findTool(name: string, env: NodeJS.ProcessEnv): Promise<FoundTool | null> {
  const own = searchPath(name, env.PATH ?? '');
  const file = own ?? (await onLoginPath(name, env));
  if (!file) return null;
  let real = file;
  try {
    real = realpathSync(file);
  } catch {
    // a dangling link: the caller's run fails and says so
  }
  return { file, real };
}

async function onLoginPath(name: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  if (process.platform === 'win32') return null;
  const login = await loginShellPath({ env });
  return login.ok ? searchPath(name, login.path) : null;
}

/** A PATH for the step: the folders of the programs it runs, then the system's. */
export function stepPath(tools: FoundTool[]): string {
  const dirs = [
    ...tools.flatMap((t) => [path.dirname(t.file), path.dirname(t.real)]),
    '/usr/local/bin',
    '/usr/bin',
    '/bin',
  ];
  return [...new Set(dirs)].join(path.delimiter);
}
