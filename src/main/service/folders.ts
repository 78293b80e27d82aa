/**
 * A folder's entries, by name, for the path picker of path settings (the install preview's form,
 * a plugin's Settings): the web UI runs in a browser, which cannot hand the server a path, so the
 * person browses this computer's folders through Plugboard instead. Names and kinds only, never
 * a file's content. Whoever holds the API token can already install and run plugins, so naming a
 * folder's entries gives them nothing they could not have.
 */
import { readdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { failure, type Outcome } from '../../shared/failures';
import type { FolderEntry, FolderListing } from '../../shared/views';

/** More than a person reads in a picker; the rest is counted, and the path can be typed. */
export const FOLDER_ENTRIES_SHOWN = 2000;

export async function listFolder(
  input: { path?: string | undefined; hidden?: boolean | undefined },
  home = os.homedir(),
): Promise<Outcome<{ listing: FolderListing }>> {
  const asked = (input.path ?? '').trim().replace(/^~(?=$|\/)/, home) || home;
  if (!path.isAbsolute(asked)) return failure('invalid_input', `path: ${asked} is not an absolute path`);
  const at = path.resolve(asked);
  let names: Array<{ name: string; dir: boolean; link: boolean }>;
  try {
    const dirents = await readdir(at, { withFileTypes: true });
    names = dirents.map((d) => ({ name: d.name, dir: d.isDirectory(), link: d.isSymbolicLink() }));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return failure('not_found', `${at} does not exist`);
    if (code === 'ENOTDIR') return failure('invalid_input', `${at} is a file, not a folder`);
    if (code === 'EACCES' || code === 'EPERM') return failure('io_error', `${at} cannot be read: permission denied`);
    return failure('io_error', `${at} cannot be read: ${(e as Error).message}`);
  }
  const visible = names.filter((n) => input.hidden || !n.name.startsWith('.'));
  const entries: FolderEntry[] = [];
  for (const n of visible) {
    let kind: FolderEntry['kind'] = n.dir ? 'directory' : 'file';
    // A link is what it points to; one that points nowhere is left out.
    if (n.link) {
      try {
        kind = (await stat(path.join(at, n.name))).isDirectory() ? 'directory' : 'file';
      } catch {
        continue;
      }
    }
    entries.push({ name: n.name, kind });
  }
  entries.sort((a, b) =>
    a.kind === b.kind ? a.name.localeCompare(b.name, undefined, { numeric: true }) : a.kind === 'directory' ? -1 : 1,
  );
  const parent = path.dirname(at);
  return {
    ok: true,
    listing: {
      path: at,
      parent: parent === at ? null : parent,
      home,
      entries: entries.slice(0, FOLDER_ENTRIES_SHOWN),
      more: Math.max(0, entries.length - FOLDER_ENTRIES_SHOWN),
    },
  };
}
