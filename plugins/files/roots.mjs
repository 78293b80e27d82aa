// The folders the user granted, and the rule every path must pass: resolved to its real location
// (symlinks included), it lies inside one of them.
import { lstat, realpath, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode, PluginError } from '../../sdk/node/dist/index.js';

/**
 * The granted roots, as real paths, from FILES_ROOTS (the `roots` setting, joined with the OS
 * path delimiter). Roots that do not exist are reported, not fatal: one missing drive must not
 * lock the user out of the others.
 */
export async function loadRoots(env = process.env) {
  const raw = (env.FILES_ROOTS ?? '')
    .split(path.delimiter)
    .map((r) => r.trim())
    .filter(Boolean);
  const roots = [];
  const problems = [];
  for (const r of raw) {
    try {
      const real = await realpath(path.resolve(expandHome(r)));
      if ((await stat(real)).isDirectory()) roots.push(real);
      else problems.push(`${r} is not a folder`);
    } catch {
      problems.push(`${r} does not exist`);
    }
  }
  return { roots: [...new Set(roots)], problems };
}

function expandHome(p) {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(os.homedir(), p.slice(2));
  return p;
}

export function isInside(root, p) {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The real location of a path that may not exist yet: the real path of its deepest existing
 * ancestor, plus the rest. A dangling symlink is refused: writing through it would land wherever
 * it points. (A path swapped for a symlink between this check and the write is not guarded
 * against: the threat here is a model's mistake, not a local attacker racing the plugin.)
 */
async function realLocation(abs) {
  const rest = [];
  let at = abs;
  for (;;) {
    try {
      return path.join(await realpath(at), ...rest.reverse());
    } catch (e) {
      if (e.code !== 'ENOENT' && e.code !== 'ENOTDIR') throw e;
      const link = await lstat(at).catch(() => null);
      if (link?.isSymbolicLink())
        throw new PluginError(`${at} is a link to something that does not exist; refusing to follow it.`);
      const parent = path.dirname(at);
      if (parent === at) throw e;
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

/**
 * Resolves what the user or model asked for. Relative paths start at the first root.
 * @returns {Promise<{real: string, root: string}>}
 */
export async function resolveInside(input, roots) {
  if (roots.length === 0) {
    throw new PluginError(
      'No folders are shared with the files plugin. Add one to its `roots` setting (FILES_ROOTS), then try again.',
    );
  }
  if (typeof input !== 'string' || input.trim() === '')
    throw new PluginError('"path" must be a non-empty string', ErrorCode.InvalidParams);
  const wanted = expandHome(input.trim());
  const abs = path.isAbsolute(wanted) ? path.resolve(wanted) : path.resolve(roots[0], wanted);
  const real = await realLocation(abs);
  const root = roots.find((r) => isInside(r, real));
  if (!root) {
    const via = real === abs ? '' : ` (it resolves to ${real})`;
    throw new PluginError(
      `Refused: ${input} is outside the folders shared with this plugin${via}. Shared folders: ${roots.join(', ')}.`,
    );
  }
  return { real, root };
}
