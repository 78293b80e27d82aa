/**
 * The folders an imported server's own files live in. Other apps run `node /abs/server.js` or
 * `python /abs/server.py` unsandboxed; Plugboard runs the plugin in its sandbox, where a folder
 * exists only if the plugin was given it. So the import gives it, read-only, the project each
 * absolute script belongs to (the nearest folder with a package.json, pyproject.toml, setup.py,
 * go.mod or .git, where its dependencies are), as a folder setting the person sees and can change.
 */
import { existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

/** The project folders of the absolute, existing files among a command's arguments. */
export function scriptFolders(command: string[], home = os.homedir()): string[] {
  const out: string[] = [];
  for (const word of command.slice(1)) {
    const candidate = word.replace(/^--?[\w-]+=/, '');
    if (!path.isAbsolute(candidate) || candidate.includes('${') || !isFile(candidate)) continue;
    const folder = projectFolder(candidate, home);
    if (folder && !out.some((f) => f === folder || f.startsWith(`${folder}${path.sep}`))) out.push(folder);
  }
  return out;
}
