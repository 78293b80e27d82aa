/**
 * Packs a folder the person picked (`<input webkitdirectory>`) into one .zip, so the web UI can
 * upload it through the same `POST /upload` a dropped .zip takes: a browser cannot hand the
 * server a folder, and the server then unpacks and checks it as it does every zip (limits, links,
 * paths). Entries keep the folder as their one top-level folder, which names a G-Assist plugin.
 *
 * The entries are stored, not compressed (fflate, level 0): the upload stays on this machine,
 * over loopback, and the server's unpacking limits apply all the same.
 *
 * What a folder install leaves out is left out here too (shared/bundle-exclusions.ts and the
 * folder's own .mcpbignore), so a picked folder installs the same files in the app and the web UI.
 */
import { zipSync, type Zippable } from 'fflate';
import ignore from 'ignore';
import { BUNDLE_EXCLUSIONS } from '../../../shared/bundle-exclusions';
import { failure, type Outcome } from '../../../shared/failures';

/** The zip format without its Zip64 extension: more entries than this need it. */
const MAX_ENTRIES = 0xffff;
const MAX_BYTES = 0xffffffff;
/** Made on Unix, a regular file, rw-r--r--: the unpacker masks modes, and a browser cannot read them. */
const UNIX = 3;
const REGULAR_FILE = (0o100644 << 16) >>> 0;

/** The folder as one zip, or why it cannot be uploaded as a folder (`invalid_input`). */
export type PackResult = Outcome<{ zip: File; entries: number }>;

/** The path of a picked file inside the picked folder's parent: `folder/sub/file.py`. */
function relativePath(f: File): string {
  // Typed loosely: the file is also read in Node (tests), whose File has no such field.
  const rel = (f as File & { webkitRelativePath?: string }).webkitRelativePath;
  return (rel || f.name).replace(/\\/g, '/');
}

export async function packFolder(files: readonly File[]): Promise<PackResult> {
  const first = files[0];
  if (!first) return failure('invalid_input', 'The folder is empty: pick a plugin folder, with its manifest inside.');
  const folder = relativePath(first).split('/')[0] ?? 'plugin';
  const inFolder = (f: File): string => relativePath(f).slice(folder.length + 1);
  const own = files.find((f) => inFolder(f) === '.mcpbignore');
  const ig = ignore().add([...BUNDLE_EXCLUSIONS]);
  if (own)
    ig.add(
      (await own.text())
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#')),
    );
  const kept = files.filter((f) => !ig.ignores(inFolder(f)));
  if (kept.length > MAX_ENTRIES)
    return failure(
      'invalid_input',
      `“${folder}” has ${kept.length} files, more than a folder upload takes (${MAX_ENTRIES}); zip it yourself and pick the .zip.`,
    );

  const entries: Zippable = {};
  let total = 0;
  for (const f of kept) {
    total += f.size;
    if (total > MAX_BYTES)
      return failure(
        'invalid_input',
        `“${folder}” is too large to upload as a folder; zip it yourself and pick the .zip.`,
      );
    entries[relativePath(f)] = [
      new Uint8Array(await f.arrayBuffer()),
      { level: 0, mtime: f.lastModified, os: UNIX, attrs: REGULAR_FILE },
    ];
  }
  const zip = zipSync(entries);
  return { ok: true, zip: new File([zip], `${folder}.zip`, { type: 'application/zip' }), entries: kept.length };
}
