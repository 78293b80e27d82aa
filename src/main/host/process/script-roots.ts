/**
 * What a script outside the plugin's folder needs to be seen in the sandbox: `node
 * /abs/path/dist/index.js` (a server a person built, named by its path in an MCP config) imports
 * its package's other files and the packages in the `node_modules` folders Node looks through,
 * from the package's own up to the root (hoisted ones in a monorepo included), and the packages
 * linked there from elsewhere (workspaces). All of it is shown read-only, none of it is run here.
 *
 * Only software is shown: the package root must hold a package.json (or, for Python, a
 * pyproject.toml or setup.py) and be a folder that may be shown at all (mayShow: not the home
 * folder or a parent of it, not a hidden folder right in it); otherwise the script file alone is.
 */
import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../fs';

/** A folder that may be shown for software: not `/`, not the home folder or a parent of it, not `~/.x`. */
export function mayShow(dir: string, home: string): boolean {
  if (dir === '/' || isInside(dir, home)) return false;
  return !(path.dirname(dir) === home && path.basename(dir).startsWith('.'));
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The nearest folder at or above `dir` holding one of `markers`, within what may be shown. */
function packageRoot(dir: string, markers: string[], home: string): string | null {
  for (let d = dir; mayShow(d, home); d = path.dirname(d)) {
    if (markers.some((m) => existsSync(path.join(d, m)))) return d;
  }
  return null;
}

/** Packages linked into a node_modules folder from elsewhere (`@scope/pkg` included): their real folders. */
function linkedPackages(nodeModules: string): string[] {
  const out: string[] = [];
  const scan = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const n of names) {
      const p = path.join(dir, n);
      if (depth === 0 && n.startsWith('@')) {
        scan(p, 1);
        continue;
      }
      try {
        if (lstatSync(p).isSymbolicLink()) out.push(real(p));
      } catch {
        // gone meanwhile
      }
    }
  };
  scan(nodeModules, 0);
  return out;
}

const SCRIPT_FILE = { node: /\.(m|c)?(j|t)sx?$/i, python: /\.pyw?$/i };

/**
 * Why a script outside the plugin's folder is not shown, or null. Outside a package, the file
 * alone is shown; that must be a script, in a folder that may be shown: a manifest naming
 * `node ~/.ssh/id_ed25519` (with a NODE_OPTIONS preload of its own to print it) would otherwise
 * have the key shown to it (red team Z09).
 */
export function scriptRefusal(script: string, runner: 'node' | 'python', home: string): string | null {
  const file = real(script);
  const markers = runner === 'node' ? ['package.json'] : ['pyproject.toml', 'setup.py', 'setup.cfg'];
  if (packageRoot(path.dirname(file), markers, home)) return null;
  // The file alone may be shown from anywhere (`node ~/server.js` too), but never one hidden in
  // the home folder: a dot-file, or anything under a dot-folder (~/.ssh, ~/.config…).
  if (
    isInside(home, file) &&
    path
      .relative(home, file)
      .split(path.sep)
      .some((part) => part.startsWith('.'))
  )
    return `its script ${file} is hidden in the home folder (${path.relative(home, file).split(path.sep)[0]}), which is never shown to a plugin`;
  if (!SCRIPT_FILE[runner].test(file))
    return `its script ${file} is not a ${runner === 'node' ? 'JavaScript or TypeScript' : 'Python'} file, and outside a package it is the only file shown: Plugboard does not show it`;
  return null;
}

/** The folders (or the file) a script outside the plugin's folder needs, read-only (see scriptRefusal). */
export function scriptRoots(script: string, runner: 'node' | 'python', home: string): string[] {
  const file = real(script);
  const markers = runner === 'node' ? ['package.json'] : ['pyproject.toml', 'setup.py', 'setup.cfg'];
  const root = packageRoot(path.dirname(file), markers, home);
  if (!root) return scriptRefusal(script, runner, home) ? [] : [file];
  const out = [root];
  if (runner === 'node') {
    // Node looks in node_modules beside the package and in every folder above it.
    for (let d = root; ; d = path.dirname(d)) {
      const nm = path.join(d, 'node_modules');
      if (existsSync(nm)) {
        if (!isInside(root, nm) && mayShow(nm, home)) out.push(nm);
        for (const linked of linkedPackages(nm))
          if (!out.some((o) => isInside(o, linked)) && mayShow(linked, home)) out.push(linked);
      }
      if (d === path.dirname(d)) break;
    }
  }
  return [...new Set(out)];
}
