/**
 * What a sandboxed command needs to see of its interpreter. A pyenv or nvm Python or Node lives
 * under the home folder, which the sandbox does not show, and a pyenv shim is a bash script
 * whose machinery (version files, libexec) lives there too: the shim is asked, once, where the
 * real interpreter is, and that runs instead.
 *
 * Asking means running a program on the host, outside any sandbox, so only programs the plugin
 * cannot have chosen or written are asked: never one in its folder, its data, or the folders
 * granted to it, and always with the host's own PATH and HOME, from `/`, in isolated mode, so
 * neither the manifest's environment nor files in the plugin folder take part.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../fs';
import { isNodeName, isPythonName, searchPath } from './resolve';

export interface InterpreterContext {
  /** The plugin's environment: its PATH finds a script's `#!` interpreter, as exec would. */
  pathEnv: string;
  /** The host's own allow-listed environment (PATH, HOME, locale), for asking an interpreter. */
  hostEnv: Record<string, string>;
  home: string;
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
}

const PROBE_MS = 5000;
// -I: no PYTHON* variables, no user site, no script folder or cwd on sys.path.
const PYTHON_PROBE = [
  '-I',
  '-c',
  'import json,sys;print(json.dumps([sys.executable,sys.prefix,sys.base_prefix,sys.exec_prefix,sys.base_exec_prefix]))',
];
const NODE_PROBE = ['-e', 'process.stdout.write(JSON.stringify([process.execPath]))'];
const probeCache = new Map<string, string[] | null>();

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Asks an interpreter where it really lives; once per executable. */
function askInterpreter(file: string, python: boolean, ctx: InterpreterContext): string[] | null {
  if (probeCache.has(file)) return probeCache.get(file) ?? null;
  const r = spawnSync(file, python ? PYTHON_PROBE : NODE_PROBE, {
    cwd: '/',
    env: ctx.hostEnv,
    timeout: PROBE_MS,
    encoding: 'utf8',
  });
  let out: string[] | null = null;
  try {
    const parsed: unknown = JSON.parse((r.stdout ?? '').trim().split('\n').pop() ?? '');
    if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((x) => typeof x === 'string' && path.isAbsolute(x)))
      out = parsed as string[];
  } catch {
    // No answer: the install-prefix guess stands alone.
  }
  probeCache.set(file, out);
  return out;
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

/**
 * A folder that may be shown for an interpreter: not `/`, not the home folder or one of its
 * parents, and not a hidden folder right in the home (~/.local, ~/.config, ~/.ssh hold data,
 * not interpreters; ~/.pyenv/versions/3.12.1 or ~/miniconda3 are fine).
 */
export function mayShow(dir: string, home: string): boolean {
  if (dir === '/' || isInside(dir, home)) return false;
  return !(path.dirname(dir) === home && path.basename(dir).startsWith('.'));
}

/** Where an interpreter's installation lives: `<prefix>` for `<prefix>/bin/<name>`, else its folder, else the file alone. */
export function installRoot(realFile: string, home: string): string {
  const dir = path.dirname(realFile);
  return [path.basename(dir) === 'bin' ? path.dirname(dir) : dir, dir].find((c) => mayShow(c, home)) ?? realFile;
}

/**
 * The executable to run and what to show for it. An interpreter (python, node…) shows its
 * install prefix; a shim is replaced by the interpreter it names; any other program shows its own
 * folder, and its `#!` interpreter is followed one level (`#!/usr/bin/env node`).
 */
export function interpreterFacts(file: string, ctx: InterpreterContext): InterpreterFacts {
  const roots: string[] = [];
  const trusted = (p: string): boolean => !ctx.untrusted.some((u) => isInside(u, real(p)));
  const visit = (f: string, replace: boolean): string => {
    // The plugin's own files are visible as they are, and are never run here.
    if (!trusted(f)) return f;
    const realFile = real(f);
    const python = isPythonName(path.basename(f));
    const shebang = shebangOf(realFile);
    roots.push(f);
    if (ctx.hostRuntime && realFile === real(ctx.hostRuntime)) {
      // Electron running plugins as node needs the files beside its binary (resources, ICU data).
      if (mayShow(path.dirname(realFile), ctx.home)) roots.push(path.dirname(realFile));
    } else if (python || isNodeName(path.basename(f))) {
      const plain =
        shebang === null && (python ? isPythonName(path.basename(realFile)) : isNodeName(path.basename(realFile)));
      const said = plain ? null : askInterpreter(f, python, ctx);
      const exe = said?.[0];
      if (said && exe && isFile(exe) && trusted(exe)) {
        roots.push(
          installRoot(real(exe), ctx.home),
          ...said.slice(1).flatMap((p) => (mayShow(real(p), ctx.home) && trusted(p) ? [real(p)] : [])),
        );
        return replace ? exe : f;
      }
      roots.push(installRoot(realFile, ctx.home));
    } else if (mayShow(path.dirname(realFile), ctx.home)) {
      // Any other program shows its folder: launchers find their siblings there (uvx runs uv).
      roots.push(path.dirname(realFile));
    }
    if (!(python || isNodeName(path.basename(f))) && shebang) {
      const [interp, ...rest] = shebang.split(/\s+/);
      const name = interp && path.basename(interp) === 'env' ? rest.find((a) => !a.startsWith('-')) : interp;
      const found = name && (path.isAbsolute(name) ? name : searchPath(name, ctx.pathEnv));
      if (found) visit(found, false);
    }
    return f;
  };
  const out = visit(file, true);
  return { file: out, roots: [...new Set(roots)] };
}
