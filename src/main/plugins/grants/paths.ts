/**
 * The folders and files a server is given in its arguments or environment, found so the person
 * sees them as grants before the server runs: the filesystem server's folder list, git's
 * `--repository`, memory's `MEMORY_FILE_PATH`, `KUBECONFIG`, a VS Code `${workspaceFolder}` (which
 * the import has already made the folder holding `.vscode`). Each is offered read-write or
 * read-only by what it looks like, and the person decides; granted, it is mounted in the sandbox
 * at the same path.
 *
 * A file the server writes is offered as its folder: servers replace a file by writing a new one
 * beside it and renaming it (the memory server does), which needs the folder. A file it only
 * reads (a configuration) is offered alone, read-only.
 */
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PathGrantView } from '../../../shared/views';
import { isInside } from '../../fs';
import { sandboxSupport } from '../../host';
import { packageOfCommand } from '../packages/detect';

/** Never offered: what every sandbox has of its own, or what must never be shown. */
const NEVER = ['/proc', '/dev', '/sys', '/run'];
/** Shown read-only to every plugin already: offered only to be written. */
const SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/etc', '/opt', '/nix/store'];
/** Names that say a value is only read: configuration, credentials, certificates. */
const READ_ONLY_NAME =
  /(config|kubeconfig|cert|ca_?bundle|ca_?file|credential|secret|key_?file|token_?file|rc$|known_hosts)/i;
/** Values that are files, by their look, when they do not exist yet. */
const FILE_LIKE = /\.[A-Za-z0-9]{1,8}$/;
/** Interpreters whose first operand is the script they run (the server's own file, not a grant). */
const INTERPRETER = /^(node|nodejs|bun|deno|python[\d.]*|ruby|perl|php)(\.exe)?$/i;

export interface FindOptions {
  home?: string;
  /**
   * The user plugins run as, where it is not the person (Plugboard runs as root, and the sandbox
   * drops to `nobody`): a folder offered read-write that this user cannot write says so. Default:
   * this machine's sandbox; null for none.
   */
  runAs?: { uid: number; gid: number; user: string } | null;
  /** The Plugboard data directory: never offered. */
  dataRoot?: string;
  /** The plugin's own folder: never offered (it sees it anyway). */
  pluginDir?: string;
}

function kindOf(p: string): 'folder' | 'file' | null {
  try {
    return statSync(p).isDirectory() ? 'folder' : 'file';
  } catch {
    return null;
  }
}

/** An existing file someone may run (its mode has an execute bit). */
function isProgram(p: string): boolean {
  try {
    const st = statSync(p);
    return st.isFile() && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** A word as a path: `~` and `${HOME}` expanded; null when it is not an absolute path. */
function asPath(word: string, home: string): string | null {
  const w = word
    .trim()
    .replace(/^~(?=$|\/)/, home)
    .replace(/^\$\{(HOME|userHome)\}(?=$|\/)/, home);
  if (w.includes('${') || !path.isAbsolute(w) || w.includes('\n')) return null;
  return path.normalize(w).replace(/(.)\/$/, '$1');
}

interface Found {
  value: string;
  from: string;
  /** The option or variable that names it, to tell a configuration from data. */
  name: string;
}

/** The words of a command that may be paths: the server's arguments, where they can be told. */
function candidateWords(command: readonly string[]): Found[] {
  const pkg = packageOfCommand(command);
  const out: Found[] = [];
  let args: string[];
  let offset: number;
  if (pkg) {
    args = pkg.args;
    offset = 0;
  } else {
    const [head = '', ...rest] = command;
    args = rest;
    offset = 0;
    if (INTERPRETER.test(path.basename(head))) {
      // Options of the interpreter, then its script: neither is the server's to be granted.
      const script = rest.findIndex((a) => !a.startsWith('-'));
      if (script === -1) return [];
      args = rest.slice(script + 1);
      offset = script + 1;
    }
  }
  for (const [i, a] of args.entries()) {
    const eq = /^(--?[\w.-]+)=(.*)$/.exec(a);
    const prev = args[i - 1];
    const option = eq ? (eq[1] as string) : prev?.startsWith('-') && !prev.includes('=') ? prev : '';
    out.push({ value: eq ? (eq[2] as string) : a, from: option || `argument ${i + offset + 1}`, name: option });
  }
  return out;
}

/** The user sandboxed plugins run as when it is not the person's (under root), or null. */
function sandboxUser(): FindOptions['runAs'] {
  const support = sandboxSupport();
  return support.available && support.root?.setpriv ? support.root : null;
}

/**
 * Why `runAs` cannot write `p` (by its mode bits), or null when it can or nobody else runs it.
 * Granted read-write, such a folder is still not written: the person should know before, not
 * from a plugin's EACCES later.
 */
function unwritableBy(p: string, runAs: FindOptions['runAs']): string | null {
  if (!runAs) return null;
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(p);
  } catch {
    return null;
  }
  const bit = st.uid === runAs.uid ? 0o200 : st.gid === runAs.gid ? 0o020 : 0o002;
  if (st.mode & bit) return null;
  const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
  return `plugins run as ${runAs.user} here (Plugboard runs as root), and ${runAs.user} cannot write this ${st.isDirectory() ? 'folder' : 'file'} (owner uid ${st.uid}, mode ${mode}): the plugin can only read it until you let ${runAs.user} write there (chmod or chown)`;
}

/** The paths a command and its environment name, each as the grant it would need. */
export function findPaths(
  command: readonly string[],
  env: Readonly<Record<string, string>>,
  opts: FindOptions = {},
): PathGrantView[] {
  const home = opts.home ?? os.homedir();
  const found: Found[] = candidateWords(command);
  for (const [name, value] of Object.entries(env)) {
    // A list of paths (`/a:/b`) is a list of grants.
    const parts = value.split(path.delimiter);
    const all = parts.length > 1 && parts.every((p) => asPath(p, home) !== null);
    for (const v of all ? parts : [value]) found.push({ value: v, from: `environment ${name}`, name });
  }
  const out: PathGrantView[] = [];
  for (const f of found) {
    const p = asPath(f.value, home);
    if (!p || p === '/') continue;
    if (NEVER.some((n) => isInside(n, p))) continue;
    if (opts.dataRoot && (isInside(opts.dataRoot, p) || isInside(p, opts.dataRoot))) continue;
    if (opts.pluginDir && isInside(opts.pluginDir, p)) continue;
    const kind = kindOf(p);
    const fileLike = kind === 'file' || (kind === null && FILE_LIKE.test(path.basename(p)));
    const readOnly = READ_ONLY_NAME.test(f.name);
    // Every plugin sees the system's folders read-only already: a configuration or a program
    // there (`--executable-path /usr/bin/chromium`) needs no grant, and its folder is not written.
    if ((readOnly || isProgram(p)) && SYSTEM.some((s) => isInside(s, p))) continue;
    let grant: PathGrantView;
    if (fileLike && !readOnly && (path.dirname(p) === home || path.dirname(p) === '/')) {
      // Its folder would be the whole home (LOG_FILE=~/.bashrc): the file alone, which it can
      // rewrite in place though not replace by renaming a new one over it.
      grant = { path: p, kind: 'file', write: true, from: f.from, exists: kind !== null };
    } else if (fileLike && !readOnly) {
      // Written: its folder, where the new file is made and renamed over the old.
      const dir = path.dirname(p);
      grant = {
        path: dir,
        kind: 'folder',
        write: true,
        from: f.from,
        named: p,
        exists: kindOf(dir) === 'folder',
      };
    } else {
      grant = { path: p, kind: fileLike ? 'file' : 'folder', write: !readOnly, from: f.from, exists: kind !== null };
    }
    if (grant.path === home) grant.note = 'your whole home folder';
    else if (!grant.exists) grant.note = `${grant.path} does not exist yet`;
    else if (grant.write) {
      const cannot = unwritableBy(grant.path, opts.runAs === undefined ? sandboxUser() : opts.runAs);
      if (cannot) grant.note = cannot;
    }
    const same = out.find((g) => g.path === grant.path);
    if (same) {
      same.write ||= grant.write;
      continue;
    }
    out.push(grant);
  }
  return out;
}
