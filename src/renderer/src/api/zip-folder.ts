/**
 * Packs a folder the person picked (`<input webkitdirectory>`) into one .zip, so the web UI can
 * upload it through the same `POST /upload` a dropped .zip takes: a browser cannot hand the
 * server a folder, and the server then unpacks and checks it as it does every zip (limits, links,
 * paths). Entries keep the folder as their one top-level folder, which names a G-Assist plugin.
 *
 * Written by hand: the entries are stored, not compressed (the upload stays on this machine, over
 * loopback, and the server's unpacking limits apply all the same), which takes a CRC-32 and three
 * fixed headers; no zip library is a dependency of the renderer. The files' bytes are never
 * copied: the result is a Blob of the headers and the picked Files themselves.
 *
 * What a folder install leaves out is left out here too (shared/bundle-exclusions.ts and the
 * folder's own .mcpbignore), so a picked folder installs the same files in the app and the web UI.
 */
import ignore from 'ignore';
import { BUNDLE_EXCLUSIONS } from '../../../shared/bundle-exclusions';

/** The zip format without its Zip64 extension: more entries than this need it. */
const MAX_ENTRIES = 0xffff;
const MAX_BYTES = 0xffffffff;

let table: Uint32Array | null = null;

function crcTable(): Uint32Array {
  if (table) return table;
  table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

export function crc32(bytes: Uint8Array): number {
  const t = crcTable();
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = (t[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** MS-DOS time and date, as zip headers carry them. */
function dosTime(ms: number): { time: number; date: number } {
  const d = new Date(ms);
  const year = Math.max(1980, d.getFullYear());
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

export type PackResult = { ok: true; zip: File; entries: number } | { ok: false; message: string };

/** The path of a picked file inside the picked folder's parent: `folder/sub/file.py`. */
function relativePath(f: File): string {
  // Typed loosely: the file is also read in Node (tests), whose File has no such field.
  const rel = (f as File & { webkitRelativePath?: string }).webkitRelativePath;
  return (rel || f.name).replace(/\\/g, '/');
}

export async function packFolder(files: readonly File[]): Promise<PackResult> {
  const first = files[0];
  if (!first) return { ok: false, message: 'The folder is empty: pick a plugin folder, with its manifest inside.' };
  const folder = relativePath(first).split('/')[0] ?? 'plugin';
  const inFolder = (f: File): string => relativePath(f).slice(folder.length + 1);
  const own = files.find((f) => inFolder(f) === '.mcpbignore');
  const ig = ignore().add([...BUNDLE_EXCLUSIONS]);
  if (own) ig.add((await own.text()).split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));
  const kept = files.filter((f) => !ig.ignores(inFolder(f)));
  if (kept.length > MAX_ENTRIES) return { ok: false, message: `“${folder}” has ${kept.length} files, more than a folder upload takes (${MAX_ENTRIES}); zip it yourself and pick the .zip.` };

  const enc = new TextEncoder();
  const parts: Array<Uint8Array<ArrayBuffer> | Blob> = [];
  const central: Uint8Array<ArrayBuffer>[] = [];
  let offset = 0;
  for (const f of kept) {
    if (f.size > MAX_BYTES || offset > MAX_BYTES) return { ok: false, message: `“${folder}” is too large to upload as a folder; zip it yourself and pick the .zip.` };
    const name = enc.encode(relativePath(f));
    const crc = crc32(new Uint8Array(await f.arrayBuffer()));
    const { time, date } = dosTime(f.lastModified);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true); // version needed: 2.0
    local.setUint16(6, 0x0800, true); // names are UTF-8
    local.setUint16(8, 0, true); // stored
    local.setUint16(10, time, true);
    local.setUint16(12, date, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, f.size, true);
    local.setUint32(22, f.size, true);
    local.setUint16(26, name.length, true);
    local.setUint16(28, 0, true);
    parts.push(new Uint8Array(local.buffer), name, f);

    const c = new DataView(new ArrayBuffer(46));
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, (3 << 8) | 20, true); // made by: Unix, 2.0 (the mode below is a Unix mode)
    c.setUint16(6, 20, true);
    c.setUint16(8, 0x0800, true);
    c.setUint16(10, 0, true);
    c.setUint16(12, time, true);
    c.setUint16(14, date, true);
    c.setUint32(16, crc, true);
    c.setUint32(20, f.size, true);
    c.setUint32(24, f.size, true);
    c.setUint16(28, name.length, true);
    // extra, comment, disk, internal attributes: 0
    c.setUint32(38, (0o100644 << 16) >>> 0, true); // a regular file, rw-r--r--
    c.setUint32(42, offset, true);
    const entry = new Uint8Array(46 + name.length);
    entry.set(new Uint8Array(c.buffer), 0);
    entry.set(name, 46);
    central.push(entry);
    offset += 30 + name.length + f.size;
  }
  const centralSize = central.reduce((n, e) => n + e.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, kept.length, true);
  end.setUint16(10, kept.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  parts.push(...central, new Uint8Array(end.buffer));
  return { ok: true, zip: new File(parts, `${folder}.zip`, { type: 'application/zip' }), entries: kept.length };
}
