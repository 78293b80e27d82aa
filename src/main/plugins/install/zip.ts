/**
 * Unpacks a .zip, .mcpb or .dxt into a staging folder, refusing, before anything is written,
 * path escapes, symlinks, too many entries, too many bytes and zip-bomb ratios, each named by
 * the entry at fault. A zip whose content sits in one top-level folder is accepted: that folder
 * becomes the plugin. Entry sizes are also checked while unpacking, so an entry that lies about
 * its size in the central directory cannot get past the byte cap.
 */
import { chmodSync, createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import yauzl, { type Entry } from 'yauzl';
import { MANIFEST_FILES } from '../manifests';
import { isInside } from '../../fs';
import { mib, refuse, type InstallLimits, type Refusal } from './limits';
import { INSTALLED_DIR_MODE, installedFileMode } from './modes';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

interface Planned {
  entry: Entry;
  /** Path inside the plugin folder, `/`-separated, without the wrapping folder. */
  rel: string;
  dir: boolean;
  mode: number;
}

export interface Unpacked {
  ok: true;
  /** The wrapping folder's name, or null for a flat zip. */
  wrapper: string | null;
  entries: number;
  bytes: number;
}

/** Rejects absolute paths, drive letters, `..` segments; returns the normalized name. */
function checkName(name: string): string | Refusal {
  const n = name.replace(/\\/g, '/');
  if (n.startsWith('/') || /^[a-zA-Z]:/.test(n)) return refuse(`zip entry "${name}" has an absolute path`);
  if (n.split('/').includes('..')) return refuse(`zip entry "${name}" escapes the plugin folder (..)`);
  if (n.includes('\0')) return refuse(`zip entry "${name}" has a NUL in its name`);
  return n;
}

function ignorable(n: string): boolean {
  return n.startsWith('__MACOSX/') || n.endsWith('/.DS_Store') || n === '.DS_Store';
}

/** Lists and checks every entry; nothing is written. */
async function plan(
  file: string,
  limits: InstallLimits,
): Promise<{ ok: true; zip: yauzl.ZipFile; items: Planned[]; wrapper: string | null; bytes: number } | Refusal> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      validateEntrySizes: true,
    });
  } catch (e) {
    return refuse(`${path.basename(file)} is not a readable zip archive (${(e as Error).message})`);
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    return refuse(`${path.basename(file)} has ${zip.entryCount} entries, more than the ${limits.maxEntries} allowed`);
  }
  const names: Array<{ entry: Entry; name: string }> = [];
  let bytes = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const raw = (entry.fileName as unknown as Buffer).toString('utf8');
      const name = checkName(raw);
      if (typeof name !== 'string') return fail(zip, name);
      if (ignorable(name)) continue;
      const mode = (entry.externalFileAttributes >>> 16) & 0xffff;
      if ((mode & S_IFMT) === S_IFLNK)
        return fail(zip, refuse(`zip entry "${raw}" is a symbolic link; plugins may not contain links`));
      bytes += entry.uncompressedSize;
      if (bytes > limits.maxBytes) {
        return fail(
          zip,
          refuse(`${path.basename(file)} unpacks to more than ${mib(limits.maxBytes)} (at entry "${raw}")`),
        );
      }
      const size = entry.uncompressedSize;
      if (size >= limits.bombMinBytes && size > limits.maxRatio * Math.max(1, entry.compressedSize)) {
        const ratio = Math.round(size / Math.max(1, entry.compressedSize));
        return fail(
          zip,
          refuse(
            `zip entry "${raw}" expands ${ratio} times (${mib(size)} from ${entry.compressedSize} bytes): refused as a zip bomb`,
          ),
        );
      }
      names.push({ entry, name });
    }
  } catch (e) {
    return fail(zip, refuse(`${path.basename(file)} is damaged: ${(e as Error).message}`));
  }
  const wrapper = findWrapper(names.map((n) => n.name));
  const items: Planned[] = [];
  // Which file would be installed is ambiguous when a name comes twice (tools differ on first or
  // last wins): refused by name, before anything is written.
  // Names are compared as the disk will see them: `./a`, `a` and `x//../a` are one file (red team
  // Z03: such twins reached the disk and failed there with a raw EEXIST).
  const files = new Map<string, string>();
  const dirs = new Map<string, string>();
  const twice = (name: string, other: string): Refusal =>
    fail(
      zip,
      refuse(
        name === other
          ? `zip entry "${name}" appears twice in ${path.basename(file)}; a package may hold each file once`
          : `zip entries "${other}" and "${name}" name the same path in ${path.basename(file)}; a package may hold each file once`,
      ),
    );
  for (const { entry, name } of names) {
    let rel = wrapper ? name.slice(wrapper.length + 1) : name;
    const dir = rel.endsWith('/') || rel === '';
    rel = path.posix.normalize(rel).replace(/\/+$/, '');
    if (rel === '' || rel === '.') continue;
    const seen = files.get(rel) ?? (dir ? undefined : dirs.get(rel));
    if (seen !== undefined) return twice(name, seen);
    (dir ? dirs : files).set(rel, name);
    items.push({ entry, rel, dir, mode: (entry.externalFileAttributes >>> 16) & 0o7777 });
  }
  // A file where another entry needs a folder (`a` and `a/b`).
  for (const rel of [...files.keys(), ...dirs.keys()]) {
    for (let at = rel.indexOf('/'); at !== -1; at = rel.indexOf('/', at + 1)) {
      const parent = files.get(rel.slice(0, at));
      if (parent !== undefined)
        return fail(
          zip,
          refuse(
            `zip entry "${parent}" is a file, yet "${files.get(rel) ?? dirs.get(rel)}" is inside it in ${path.basename(file)}`,
          ),
        );
    }
  }
  return { ok: true, zip, items, wrapper, bytes };
}

function fail(zip: yauzl.ZipFile, r: Refusal): Refusal {
  zip.close();
  return r;
}

/**
 * The single top-level folder holding the manifest, when the root holds none. A flat zip has its
 * manifest at the root; a wrapped one (what "Compress folder" makes) one level down.
 */
function findWrapper(names: string[]): string | null {
  const top = new Set<string>();
  for (const n of names) top.add(n.split('/')[0] as string);
  if (MANIFEST_FILES.some((m) => names.includes(m))) return null;
  if (top.size !== 1) return null;
  const only = [...top][0] as string;
  const nested = names.some((n) => n.startsWith(`${only}/`));
  return nested && MANIFEST_FILES.some((m) => names.includes(`${only}/${m}`)) ? only : null;
}

/** Unpacks into `dest` (which must not exist yet). */
export async function unpackZip(file: string, dest: string, limits: InstallLimits): Promise<Unpacked | Refusal> {
  const p = await plan(file, limits);
  if (!p.ok) return p;
  const { zip, items, wrapper } = p;
  mkdirSync(dest, { recursive: true });
  let written = 0;
  let current = '';
  try {
    for (const it of items) {
      current = it.rel;
      const target = path.join(dest, ...it.rel.split('/'));
      if (!isInside(dest, target)) return fail(zip, refuse(`zip entry "${it.rel}" escapes the plugin folder`));
      if (it.dir) {
        mkdirSync(target, { recursive: true, mode: INSTALLED_DIR_MODE });
        continue;
      }
      mkdirSync(path.dirname(target), { recursive: true, mode: INSTALLED_DIR_MODE });
      const stream = await zip.openReadStreamPromise(it.entry);
      // Count real bytes too: the declared sizes are only what the archive claims.
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          written += chunk.length;
          if (written > limits.maxBytes)
            cb(new Error(`unpacks to more than ${mib(limits.maxBytes)} (at entry "${it.rel}")`));
          else cb(null, chunk);
        },
      });
      await pipeline(stream, counter, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
      // Set after the write, whatever the umask: the entry's mode masked (modes.ts).
      chmodSync(target, installedFileMode(it.mode));
    }
  } catch (e) {
    // A corrupt entry (bad deflate data, a size or CRC that does not match): name it.
    const message = (e as Error).message;
    return fail(
      zip,
      refuse(
        `${path.basename(file)}: ${message.includes(`"${current}"`) ? message : `entry "${current}": ${message}`}`,
      ),
    );
  }
  zip.close();
  return { ok: true, wrapper, entries: items.length, bytes: written };
}
