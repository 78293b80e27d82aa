/**
 * A real package from the npm registry for a test, installed once at a pinned version into
 * test/.tmp/npm/<name>@<version> (kept between runs, so only the first run downloads it; CI's
 * clean clone downloads it once per run, a few seconds from the registry, which is reachable
 * there). When the registry cannot be reached the test is skipped with npm's own reason.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './plugins';

const CACHE = path.join(REPO, 'test', '.tmp', 'npm');

export type RealPackage = { ok: true; dir: string } | { ok: false; reason: string };

/** Installs name@version (with its dependencies) into a folder of its own; resolves to that folder. */
export async function realNpmPackage(name: string, version: string): Promise<RealPackage> {
  const dir = path.join(CACHE, `${name.replace('/', '+')}@${version}`);
  const done = path.join(dir, '.installed');
  if (existsSync(done)) return { ok: true, dir };
  mkdirSync(dir, { recursive: true });
  const args = [
    'install',
    '--prefix',
    dir,
    '--no-audit',
    '--no-fund',
    '--no-save',
    '--ignore-scripts',
    `${name}@${version}`,
  ];
  const error = await new Promise<string | undefined>((resolve) =>
    execFile('npm', args, { timeout: 180_000 }, (e, _out, stderr) =>
      resolve(
        e
          ? `npm install ${name}@${version} failed: ${stderr.trim().split('\n').slice(-3).join(' ') || e.message}`
          : undefined,
      ),
    ),
  );
  if (error) return { ok: false, reason: error };
  writeFileSync(done, '');
  return { ok: true, dir };
}
