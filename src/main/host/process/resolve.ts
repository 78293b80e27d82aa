/**
 * Command resolution: turn a manifest's command into an absolute executable and arguments, or a
 * failure that names the command, the PATH searched and the working directory. Desktop apps do
 * not inherit the login shell's PATH, so `spawn npx ENOENT` must never be the whole story.
 */
import { accessSync, closeSync, constants, openSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { failure, type Failure } from '../../../shared/failures';
import { isInside } from '../../fs';
import { nvmDefault, type ToolchainContext } from './toolchains';

export interface ResolvedCommand {
  ok: true;
  file: string;
  args: string[];
  /** The plugin runs under a Python interpreter (PYTHONUNBUFFERED, libs/ on PYTHONPATH). */
  python: boolean;
  /** Extra environment the resolution needs (ELECTRON_RUN_AS_NODE when Electron stands in for node). */
  env: Record<string, string>;
  /**
   * A script outside the plugin's folder (`node /abs/path/dist/index.js`), by its real path and
   * the runtime it runs under: the sandbox shows its package (script-roots.ts).
   */
  outsideScript?: { file: string; runner: 'node' | 'python' };
}

/** Set as `details.data` of a failure whose command or interpreter is not on PATH. */
export interface NotOnPath {
  notOnPath: string;
}

export function isNotOnPath(f: Failure): boolean {
  const d = f.details?.data as Partial<NotOnPath> | undefined;
  return typeof d?.notOnPath === 'string';
}

export interface ResolveInput {
  command: string[];
  /**
   * The plugin folder: relative script paths resolve here and must stay inside. Absolute paths are
   * the user's own choice (`node /abs/path/server.js` in a config they import) and may be anywhere.
   */
  dir: string;
  cwd: string;
  /**
   * Where bare names are looked up: Plugboard's own PATH and the login shell's, never one the
   * manifest sets (docs/ARCHITECTURE.md, the sandbox): what a plugin puts on its PATH is its own
   * business inside its sandbox, but it must not choose which program the host resolves, shows
   * or follows.
   */
  pathEnv: string;
  /** The home folder and Plugboard's environment, for nvm's default version when no node is on PATH. */
  toolchain?: ToolchainContext;
  platform?: NodeJS.Platform;
  /** The runtime running the host, used for `.js` plugins when no `node` is on PATH. */
  execPath?: string;
  isElectron?: boolean;
}

const SCRIPT_RUNNERS: Record<string, 'python' | 'node'> = {
  '.py': 'python',
  '.js': 'node',
  '.mjs': 'node',
  '.cjs': 'node',
};

export function isPythonName(base: string): boolean {
  return /^python(\d+(\.\d+)?)?(\.exe)?$/i.test(base);
}

export function isNodeName(base: string): boolean {
  return /^(node|bun|deno)(\.exe)?$/i.test(base);
}

export function searchPath(name: string, pathEnv: string, platform: NodeJS.Platform = process.platform): string | null {
  const sep = platform === 'win32' ? ';' : ':';
  const exts = platform === 'win32' ? ['', '.exe', '.cmd', '.bat', '.com'] : [''];
  for (const dir of pathEnv.split(sep)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (isExecutableFile(candidate, platform)) return candidate;
    }
  }
  return null;
}

function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

export function resolveCommand(input: ResolveInput): ResolvedCommand | Failure {
  const platform = input.platform ?? process.platform;
  const details = { command: input.command, pathSearched: input.pathEnv, cwd: input.cwd };
  const fail = (message: string, missing?: string): Failure =>
    failure(
      'launch_failed',
      message,
      missing ? { ...details, data: { notOnPath: missing } satisfies NotOnPath } : details,
    );
  if (input.command.length === 0 || !input.command[0]) return fail('the manifest gives no command to run');
  const [head, ...rest] = input.command as [string, ...string[]];
  const dir = realDir(input.dir);

  // A script named as the executable (G-Assist `executable: "plugin.py"`): run it with its interpreter.
  const runner = SCRIPT_RUNNERS[path.extname(head).toLowerCase()];
  if (runner) {
    const script = scriptInside(head, dir);
    if (!script.ok) return fail(script.message);
    const interp = findInterpreter(runner, input, platform);
    if (!interp.ok) return fail(interp.message, runner);
    return { ok: true, file: interp.file, args: [script.file, ...rest], python: runner === 'python', env: interp.env };
  }
  return resolveProgram(input, head, rest, dir, platform, fail);
}

function resolveProgram(
  input: ResolveInput,
  head: string,
  rest: string[],
  dir: string,
  platform: NodeJS.Platform,
  fail: (message: string, missing?: string) => Failure,
): ResolvedCommand | Failure {
  let file: string;
  let env: Record<string, string> = {};
  if (!head.includes('/') && !head.includes('\\')) {
    const found = searchPath(head, input.pathEnv, platform);
    if (found) file = found;
    else if (/^node(\.exe)?$/i.test(head)) {
      // `node` itself (MCPB `server.type: node`): the host's runtime stands in, as for `.js` scripts,
      // because an app started from a desktop has a PATH without the user's Node.
      const interp = findInterpreter('node', input, platform);
      if (!interp.ok) return fail(interp.message, 'node');
      file = interp.file;
      env = interp.env;
    } else return fail(`"${head}" was not found on PATH`, head);
  } else {
    const target = path.isAbsolute(head) ? head : path.resolve(dir, head);
    let real: string;
    try {
      real = realpathSync(target);
    } catch {
      return fail(`"${head}" does not exist (looked for ${target})`);
    }
    if (!path.isAbsolute(head) && !isInside(dir, real)) {
      return fail(`"${head}" resolves to ${real}, outside the plugin folder ${dir}`);
    }
    if (!statSync(real).isFile()) return fail(`"${head}" is not a file`);
    const windowsOnly = platform !== 'win32' ? windowsProgram(real) : null;
    if (windowsOnly) return fail(`"${head}" is ${windowsOnly}, which cannot run on ${platform}`);
    if (!isExecutableFile(real, platform)) {
      const mode = (statSync(real).mode & 0o777).toString(8).padStart(4, '0');
      return fail(`"${head}" is not executable (mode ${mode}); run chmod +x on it`);
    }
    file = real;
  }

  const base = path.basename(file);
  const python = isPythonName(base);
  const runsNode = isNodeName(base) || file === input.execPath;
  const args = [...rest];
  let outsideScript: ResolvedCommand['outsideScript'];
  if (python || runsNode) {
    const at = scriptArgIndex(args, python);
    if (at !== -1) {
      const script = scriptInside(args[at] as string, dir);
      if (!script.ok) return fail(script.message);
      args[at] = script.file;
      if (!isInside(dir, script.file)) outsideScript = { file: script.file, runner: python ? 'python' : 'node' };
    }
  }
  return { ok: true, file, args, python, env, ...(outsideScript ? { outsideScript } : {}) };
}

/** What a Windows-only program is (`launch.bat`, a `.exe` built for Windows), or null. */
function windowsProgram(file: string): string | null {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.bat' || ext === '.cmd') return 'a Windows batch file';
  if (ext === '.ps1') return 'a PowerShell script';
  if (ext !== '.exe') return null;
  try {
    const head = Buffer.alloc(2);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, head, 0, 2, 0);
    } finally {
      closeSync(fd);
    }
    return head.toString('latin1') === 'MZ' ? 'a Windows program' : null;
  } catch {
    return null;
  }
}

/** Index of the script argument of an interpreter command, or -1 (`python -m pkg`, `node -e`). */
function scriptArgIndex(args: string[], python: boolean): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-m' || a === '-c' || a === '-e' || a === '--eval' || a === '-p') return -1;
    if (python && (a === '-X' || a === '-W')) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    const looksLikeScript = a.includes('/') || a.includes('\\') || SCRIPT_RUNNERS[path.extname(a).toLowerCase()];
    return looksLikeScript ? i : -1;
  }
  return -1;
}

/** A script argument: an absolute one must exist; a relative one must also stay inside the folder. */
function scriptInside(rel: string, dir: string): { ok: true; file: string } | { ok: false; message: string } {
  const target = path.isAbsolute(rel) ? rel : path.resolve(dir, rel);
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    return { ok: false, message: `script "${rel}" does not exist (looked for ${target})` };
  }
  if (!path.isAbsolute(rel) && !isInside(dir, real)) {
    return { ok: false, message: `script "${rel}" resolves to ${real}, outside the plugin folder ${dir}` };
  }
  return { ok: true, file: real };
}

function findInterpreter(
  runner: 'python' | 'node',
  input: ResolveInput,
  platform: NodeJS.Platform,
): { ok: true; file: string; env: Record<string, string> } | { ok: false; message: string } {
  if (runner === 'python') {
    const names = platform === 'win32' ? ['python', 'py'] : ['python3', 'python'];
    for (const n of names) {
      const f = searchPath(n, input.pathEnv, platform);
      if (f) return { ok: true, file: f, env: {} };
    }
    return {
      ok: false,
      message: `no Python interpreter (${names.join(' or ')}) was found on PATH to run ${input.command[0]}`,
    };
  }
  const node = searchPath('node', input.pathEnv, platform) ?? (input.toolchain && nvmDefault('node', input.toolchain));
  if (node) return { ok: true, file: node, env: {} };
  if (input.execPath) {
    // Inside Electron the app binary runs plain Node scripts when told to.
    return { ok: true, file: input.execPath, env: input.isElectron ? { ELECTRON_RUN_AS_NODE: '1' } : {} };
  }
  return { ok: false, message: `no node was found on PATH to run ${input.command.join(' ')}` };
}
