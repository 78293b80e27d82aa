/**
 * The folders an imported server's own files live in. Other apps run `node /abs/server.js` or
 * `python /abs/server.py` unsandboxed; Plugboard runs the plugin in its sandbox, where a folder
 * exists only if the plugin was given it. So the import gives it, read-only, the project each
 * absolute script belongs to (the nearest folder with a package.json, pyproject.toml, setup.py,
 * go.mod or .git, where its dependencies are), as a folder setting the person sees and can change.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageOfCommand } from '../packages/detect';

const PROJECT_MARKERS = ['package.json', 'pyproject.toml', 'setup.py', 'go.mod', '.git'];
/** How far above a script its project root is looked for (build/index.js, src/pkg/server.py…). */
const MAX_UP = 4;

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

export function projectFolder(script: string, home = os.homedir()): string | null {
  let dir = path.dirname(script);
  for (let i = 0; i <= MAX_UP; i++) {
    if (dir === home || dir === path.dirname(dir)) break;
    if (PROJECT_MARKERS.some((m) => existsSync(path.join(dir, m)))) return dir;
    dir = path.dirname(dir);
  }
  const own = path.dirname(script);
  return own === home || own === '/' ? null : own;
}

/**
 * The project folders of the absolute, existing files among a command's arguments. A server a
 * package runner fetches (`npx pkg`, `uvx pkg`) runs from its package: a file its arguments name
 * (`--db-path /abs/test.db`, `--executable-path /usr/bin/chromium`) is its data, a grant
 * (grants/paths.ts), never its own folder.
 */
export function scriptFolders(command: string[], home = os.homedir()): string[] {
  if (packageOfCommand(command)) return [];
  const out: string[] = [];
  for (const word of command.slice(1)) {
    const candidate = word.replace(/^--?[\w-]+=/, '');
    if (!path.isAbsolute(candidate) || candidate.includes('${') || !isFile(candidate)) continue;
    const folder = projectFolder(candidate, home);
    if (folder && !out.some((f) => f === folder || f.startsWith(`${folder}${path.sep}`))) out.push(folder);
  }
  return out;
}

/**
 * Whether a server that runs from the person's own folder (`node /abs/project/dist/index.js`) can
 * run from a copy in Plugboard instead: then it needs none of their folders, and what they change
 * there later does not change what runs. Offered for a Node server whose one project folder holds
 * everything it loads (its package.json's dependencies in its own node_modules); `why` says why
 * another cannot (a Python server runs with an environment outside its folder; a monorepo's
 * packages are above it). Null where the server runs nothing of the person's.
 */
export function copyOffer(
  command: string[],
  home = os.homedir(),
): { folder: string; offered: true } | { folder: string; offered: false; why: string } | null {
  const folders = scriptFolders(command, home);
  const folder = folders[0];
  if (folder === undefined) return null;
  if (folders.length > 1) return { folder, offered: false, why: 'its files are in more than one folder' };
  const runner = path.basename(command[0] ?? '').replace(/\.exe$/i, '');
  if (runner !== 'node')
    return { folder, offered: false, why: `it runs with ${runner}, whose environment is outside the folder` };
  const manifest = path.join(folder, 'package.json');
  if (!existsSync(manifest)) return { folder, offered: true };
  let deps: Record<string, unknown> = {};
  try {
    deps =
      (JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, unknown> }).dependencies ?? {};
  } catch {
    return { folder, offered: false, why: `its package.json does not read` };
  }
  if (Object.keys(deps).length > 0 && !existsSync(path.join(folder, 'node_modules')))
    return {
      folder,
      offered: false,
      why: 'its packages are not inside the folder (a node_modules above it, as in a monorepo)',
    };
  return { folder, offered: true };
}
