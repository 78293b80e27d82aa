/**
 * What a sandboxed command needs to see of its interpreter, found by reading the file system
 * only: nothing is run on the host to find it (docs/ARCHITECTURE.md, the sandbox). A pyenv, nvm,
 * volta, asdf or mise Python or Node lives under the home folder, which the sandbox does not
 * show, and a shim's machinery (version files, libexec) lives there too: the shim is read
 * (toolchains.ts), the real interpreter runs instead, and its install prefix is shown read-only.
 *
 * - An interpreter shows its install prefix: `<prefix>` for `<prefix>/bin/<name>`; a Python
 *   virtual environment (a `pyvenv.cfg` beside its `bin`) also shows the base installation its
 *   `home` names; a Homebrew program shows the whole Homebrew prefix (its libraries live there).
 * - Any other program shows its own folder, and its `#!` interpreter is followed one level
 *   (`#!/usr/bin/env node`), looked up on the PATH given, which is Plugboard's and the login
 *   shell's, never the plugin's.
 * - A program the plugin controls (in its folder, its data, a folder granted to it) is shown as
 *   it is by the sandbox's own mounts and is never followed.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../fs';
import { isNodeName, isPythonName, searchPath } from './resolve';
import { mayShow } from './script-roots';
import { resolveShim, type ToolchainContext } from './toolchains';

export { mayShow } from './script-roots';

export interface InterpreterContext {
  /** Plugboard's own PATH and the login shell's: where a `#!/usr/bin/env x` is found. */
  pathEnv: string;
  /** The home folder, Plugboard's own environment and the plugin's folder, for shims' version files. */
  toolchain: ToolchainContext;
  /** Real paths the plugin controls or may write: its folder, the data directory, its grants. */
  untrusted: string[];
  /** The runtime running the host (Electron's binary in the app), which may stand in for node. */
  hostRuntime?: string;
}

export interface InterpreterFacts {
  /** The executable to run: the plan's, or the real interpreter behind a shim. */
  file: string;
  /** Paths to show read-only (folders, or single files shown at their own path). */
  roots: string[];
  /** The folders of the real interpreters, for the front of the plugin's PATH. */
  binDirs: string[];
  /** Why the program behind a shim could not be told (the launch fails with it). */
  problem?: string;
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function shebangOf(file: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('utf8');
    return text.startsWith('#!') ? (text.slice(2).split('\n')[0] ?? '').trim() : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Where an interpreter's installation lives: `<prefix>` for `<prefix>/bin/<name>`, else its folder, else the file alone. */
export function installRoot(realFile: string, home: string): string {
  const brew = realFile.indexOf('/Cellar/');
  if (brew > 0 && mayShow(realFile.slice(0, brew), home)) return realFile.slice(0, brew);
  const dir = path.dirname(realFile);
  return [path.basename(dir) === 'bin' ? path.dirname(dir) : dir, dir].find((c) => mayShow(c, home)) ?? realFile;
}

/** A Python virtual environment's root and the base installation it was made from, or null. */
function venvOf(file: string, home: string): string[] | null {
  const root = path.dirname(path.dirname(path.resolve(file)));
  const cfg = path.join(root, 'pyvenv.cfg');
  if (!existsSync(cfg)) return null;
  const out = mayShow(root, home) ? [root] : [];
  try {
    const base = /^home\s*=\s*(.+)$/m.exec(readFileSync(cfg, 'utf8'))?.[1]?.trim();
    if (base) {
      const exe = ['python3', 'python'].map((n) => path.join(base, n)).find((p) => existsSync(p));
      out.push(exe ? installRoot(real(exe), home) : installRoot(path.join(real(base), 'python3'), home));
    }
  } catch {
    // unreadable: the venv alone
  }
  return out;
}

/** Folders of `pathEnv` that hold shims: skipped when a shim says "the system's version". */
function withoutShims(pathEnv: string, name: string): string[] {
  return pathEnv.split(':').filter((d) => {
    if (!d || path.basename(d) === 'shims') return false;
    return path.basename(real(path.join(d, name))) !== 'volta-shim';
  });
}

/**
 * The executable to run and what to show for it. An interpreter (python, node…) shows its
 * install prefix; a shim is replaced by the interpreter it stands for; any other program shows
 * its own folder, and its `#!` interpreter is followed one level (`#!/usr/bin/env node`).
 */
export function interpreterFacts(file: string, ctx: InterpreterContext): InterpreterFacts {
  const roots: string[] = [];
  const binDirs: string[] = [];
  let problem: string | undefined;
  const home = ctx.toolchain.home;
  const trusted = (p: string): boolean => !ctx.untrusted.some((u) => isInside(u, real(p)));

  const behindShim = (f: string): string => {
    const name = path.basename(f);
    const shim = resolveShim(f, ctx.toolchain);
    if (!shim) return f;
    if ('file' in shim) return shim.file;
    if ('system' in shim) {
      const next = searchPath(name, withoutShims(ctx.pathEnv, name).join(':'));
      if (next) return next;
      problem = `${f} is a ${shim.tool} shim set to the system's ${name}, and there is none on PATH`;
      return f;
    }
    problem = `${f} is a ${shim.tool} shim, and ${shim.problem}`;
    return f;
  };

  const visit = (given: string, followShebang: boolean): string => {
    // The plugin's own files are visible as they are, and are never followed here.
    if (!trusted(given)) return given;
    const f = behindShim(given);
    if (!trusted(f)) return f;
    const realFile = real(f);
    const base = path.basename(f);
    const python = isPythonName(base);
    const interpreter = python || isNodeName(base);
    roots.push(f);
    if (ctx.hostRuntime && realFile === real(ctx.hostRuntime)) {
      // Electron running plugins as node needs the files beside its binary (resources, ICU data).
      if (mayShow(path.dirname(realFile), home)) roots.push(path.dirname(realFile));
    } else if (interpreter) {
      const venv = python ? venvOf(f, home) : null;
      roots.push(...(venv ?? []), installRoot(realFile, home));
      binDirs.push(path.dirname(f));
    } else if (mayShow(path.dirname(realFile), home)) {
      // Any other program shows its folder: launchers find their siblings there (uvx runs uv).
      roots.push(path.dirname(realFile));
      const brew = installRoot(realFile, home);
      if (realFile.includes('/Cellar/')) roots.push(brew);
    }
    const shebang = interpreter ? null : shebangOf(realFile);
    if (followShebang && shebang) {
      const [interp, ...rest] = shebang.split(/\s+/);
      const name = interp && path.basename(interp) === 'env' ? rest.find((a) => !a.startsWith('-')) : interp;
      const found = name && (path.isAbsolute(name) ? name : searchPath(name, ctx.pathEnv));
      if (found) visit(found, false);
    }
    return f;
  };
  const out = visit(file, true);
  return { file: out, roots: [...new Set(roots)], binDirs: [...new Set(binDirs)], ...(problem ? { problem } : {}) };
}
