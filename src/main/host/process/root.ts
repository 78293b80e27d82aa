/**
 * Plugboard running as root (containers, CI, many servers), and what that means for plugins: who
 * they run as in their sandbox (sandbox-inner.ts), and the words the app and the CLI say about it.
 */
import { chmodSync, lchownSync, lstatSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { failure, type Failure } from '../../../shared/failures';
import { isInside } from '../../fs';
import { searchPath } from './resolve';
import type { RootMode } from './sandbox-inner';

/** Whether this process runs as root. */
export function runningAsRoot(platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'win32' && process.getuid?.() === 0;
}

/** A name's id in /etc/passwd or /etc/group, with its group id from passwd. */
function lookup(file: string, names: string[]): { id: number; gid: number; name: string } | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  for (const name of names) {
    const line = text.split('\n').find((l) => l.startsWith(`${name}:`));
    const f = line?.split(':');
    if (f && Number.isInteger(Number(f[2]))) return { id: Number(f[2]), gid: Number(f[3] ?? f[2]), name };
  }
  return null;
}

/** Under root: the unprivileged user plugins run as (`nobody`), and the setpriv that drops to it. */
export function rootMode(platform: NodeJS.Platform = process.platform): RootMode | null {
  if (!runningAsRoot(platform)) return null;
  const user = lookup('/etc/passwd', ['nobody']);
  const group = lookup('/etc/group', ['nogroup', 'nobody']);
  return {
    uid: user?.id ?? 65534,
    gid: group?.id ?? user?.gid ?? 65534,
    user: user?.name ?? 'nobody',
    setpriv: searchPath('setpriv', '/usr/bin:/bin:/usr/sbin:/sbin', platform),
  };
}

/**
 * What running as root means for plugins, in one or two sentences, or null when Plugboard does
 * not run as root. `sandboxed`: plugins run in the sandbox here; `root`: the sandbox's root mode.
 */
export function rootNotice(sandboxed: boolean, root: RootMode | null | undefined): string | null {
  if (!runningAsRoot()) return null;
  if (!sandboxed)
    return 'Plugboard runs as root and plugins run unsandboxed: every plugin can do anything root can on this computer (read every file, change the system). Run Plugboard as an ordinary user.';
  if (root?.setpriv)
    return `Plugboard runs as root: each plugin runs in its sandbox as the unprivileged user ${root.user} (uid ${root.uid}), so it cannot read root-only files (/etc/shadow), change kernel settings or see root's keyrings; the folders you grant it are read and written as ${root.user}, so it can use only those that user may.`;
  return 'Plugboard runs as root and setpriv (util-linux) is missing: plugins run in their sandbox as root with every capability dropped, /proc/sys read-only and the keyrings hidden, but can read any root-only file the sandbox shows (/etc/shadow). Install util-linux, or run Plugboard as an ordinary user.';
}

/** Every entry of a tree, the folder first; symlinks are not followed. */
function walk(dir: string, visit: (p: string, st: Stats) => void): void {
  const st = lstatSync(dir);
  visit(dir, st);
  if (!st.isDirectory()) return;
  for (const name of readdirSync(dir)) walk(path.join(dir, name), visit);
}

const madeReadable = new Map<string, number>();

/**
 * Under root, before a launch: the plugin's data folder becomes the unprivileged user's (it writes
 * there), and the plugin's folder must be readable by that user. A folder of Plugboard's own (in
 * the data directory: an installed plugin, a staged one) is made readable to all, as an install
 * by an ordinary user would have left it; a folder of the person's (`plugboard check ./dir`) is
 * left as it is, and a launch it would fail says so.
 */
export function prepareForRoot(
  root: RootMode,
  dirs: { pluginDir: string; dataDir: string; hiddenRoot: string },
): Failure | null {
  if (!root.setpriv) return null;
  try {
    if (lstatSync(dirs.dataDir).uid !== root.uid) walk(dirs.dataDir, (p) => lchownSync(p, root.uid, root.gid));
    const st = statSync(dirs.pluginDir);
    if (isInside(dirs.hiddenRoot, dirs.pluginDir)) {
      if (madeReadable.get(dirs.pluginDir) !== st.mtimeMs) {
        walk(dirs.pluginDir, (p, s) => {
          if (s.isSymbolicLink()) return;
          const want = s.mode | 0o044 | (s.isDirectory() || s.mode & 0o100 ? 0o011 : 0);
          if ((s.mode & 0o7777) !== (want & 0o7777)) chmodSync(p, want & 0o7777);
        });
        madeReadable.set(dirs.pluginDir, statSync(dirs.pluginDir).mtimeMs);
      }
    } else if ((st.mode & 0o005) !== 0o005) {
      const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
      return failure(
        'launch_failed',
        `Plugboard runs as root, so the plugin runs as ${root.user}, who cannot read its folder ${dirs.pluginDir} (mode ${mode}): make it readable to all (chmod -R a+rX ${dirs.pluginDir}) or run Plugboard as an ordinary user`,
      );
    }
    return null;
  } catch (e) {
    return failure('io_error', `could not prepare ${dirs.dataDir} for ${root.user}: ${(e as Error).message}`);
  }
}
