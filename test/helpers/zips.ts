/**
 * Real zip archives for install tests, written with yazl. Hostile ones (path escapes) are made by
 * writing a harmless name of the same length and patching its bytes afterwards: the name is not
 * covered by the CRC, and yazl rightly refuses to write such names itself.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import yazl from 'yazl';

export interface ZipItem {
  name: string;
  data?: Buffer | string;
  mode?: number;
  dir?: boolean;
  /** Store without compression (for bombs: keep the ratio honest), default deflate. */
  store?: boolean;
}

export function zipBuffer(items: ZipItem[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const it of items) {
    if (it.dir) zip.addEmptyDirectory(it.name, { mode: it.mode ?? 0o40755 });
    else
      zip.addBuffer(Buffer.isBuffer(it.data) ? it.data : Buffer.from(it.data ?? ''), it.name, {
        mode: it.mode ?? 0o100644,
        compress: !it.store,
      });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

export async function writeZip(file: string, items: ZipItem[], patch?: { from: string; to: string }): Promise<string> {
  let buf = await zipBuffer(items);
  if (patch) {
    if (patch.from.length !== patch.to.length) throw new Error('patched names must keep their length');
    const from = Buffer.from(patch.from);
    const to = Buffer.from(patch.to);
    let at = buf.indexOf(from);
    if (at === -1) throw new Error(`"${patch.from}" is not in the zip`);
    buf = Buffer.from(buf);
    while (at !== -1) {
      to.copy(buf, at);
      at = buf.indexOf(from, at + 1);
    }
  }
  writeFileSync(file, buf);
  return file;
}

/** Every file of a folder as zip items, optionally under a top-level folder. */
export function folderItems(dir: string, prefix = ''): ZipItem[] {
  const out: ZipItem[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      const st = statSync(path.join(dir, r));
      if (st.isDirectory()) walk(r);
      else
        out.push({ name: `${prefix}${r}`, data: readFileSync(path.join(dir, r)), mode: 0o100000 | (st.mode & 0o777) });
    }
  };
  walk('');
  return out;
}
