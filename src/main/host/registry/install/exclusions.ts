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

/** The mcpb CLI's list, in its order (its `.env.local` and `.env.*.local` are already `.env*`). */
export const BUNDLE_EXCLUSIONS: readonly string[] = [
  '.DS_Store',
  'Thumbs.db',
  '.gitignore',
  '.git',
  '.mcpbignore',
  '*.log',
  '.env*',
  '.npm',
  '.npmrc',
  '.yarnrc',
  '.yarn',
  '.eslintrc',
  '.editorconfig',
  '.prettierrc',
  '.prettierignore',
  '.eslintignore',
  '.nycrc',
  '.babelrc',
  '.pnp.*',
  'node_modules/.cache',
  'node_modules/.bin',
  '*.map',
  'npm-debug.log*',
  'yarn-debug.log*',
  'yarn-error.log*',
  'package-lock.json',
  'yarn.lock',
  '*.mcpb',
  '*.d.ts',
  '*.tsbuildinfo',
  'tsconfig.json',
];

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
  const ig = ignore().add([...BUNDLE_EXCLUSIONS]).add(ownPatterns(dir));
  return (rel, isDir) => ig.ignores(isDir ? `${rel}/` : rel);
}
