/**
 * What a folder install leaves out: the files the mcpb CLI excludes when it packs a bundle
 * (`mcpb pack`, src/node/files.ts in anthropics/mcpb: version control, editor and tool
 * configuration, logs, `.env*` files, lock files, source maps, type declarations, caches and
 * `node_modules/.bin`), plus the folder's own `.mcpbignore`, in gitignore syntax as mcpb reads it.
 * A folder installed right after `npm install` then holds what its bundle would.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { BUNDLE_EXCLUSIONS } from '../../../shared/bundle-exclusions';

/** The folder's `.mcpbignore` lines: blank lines and comments dropped, as mcpb does. */
function ownPatterns(dir: string): string[] {
  let text: string;
  try {
    text = readFileSync(path.join(dir, '.mcpbignore'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !l.startsWith('#'));
}

/** A test for `/`-separated paths relative to `dir`: true when the entry is left out. */
export function exclusions(dir: string): (rel: string, isDir: boolean) => boolean {
  const ig = ignore()
    .add([...BUNDLE_EXCLUSIONS])
    .add(ownPatterns(dir));
  return (rel, isDir) => ig.ignores(isDir ? `${rel}/` : rel);
}
