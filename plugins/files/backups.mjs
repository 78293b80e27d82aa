// Automatic backups, one folder per file under <data dir>/backups: each write keeps the previous
// content (or the fact that there was none), at most KEEP per file; undo takes the newest.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const KEEP = 5;

export class Backups {
  constructor(dir, keep = KEEP) {
    this.dir = dir;
    this.keep = keep;
    this.sequence = 0;
  }

  /** The folder of one file's backups: a hash of its real path, and its name to help a human. */
  folderFor(realPath) {
    const hash = createHash('sha256').update(realPath).digest('hex').slice(0, 16);
    const name = path
      .basename(realPath)
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .slice(0, 40);
    return path.join(this.dir, `${hash}-${name}`);
  }

  /**
   * Keeps what a file held before a change.
   * @param previous {{existed: false} | {existed: true, content: Buffer, mode: number}}
   */
  async save(realPath, previous) {
    const folder = this.folderFor(realPath);
    await mkdir(folder, { recursive: true });
    // Sortable by name: time, then a counter for writes within the same millisecond.
    const stamp = `${String(Date.now()).padStart(15, '0')}-${String(this.sequence++ % 10000).padStart(4, '0')}`;
    if (previous.existed) await writeFile(path.join(folder, `${stamp}.bak`), previous.content);
    const meta = {
      path: realPath,
      existed: previous.existed,
      mode: previous.mode ?? null,
      saved_at: new Date().toISOString(),
    };
    // The metadata is written last: a backup without it is incomplete and ignored.
    await writeFile(path.join(folder, `${stamp}.json`), JSON.stringify(meta, null, 2));
    await this.prune(folder);
  }

  async list(realPath) {
    const folder = this.folderFor(realPath);
    const names = await readdir(folder).catch(() => []);
    return names
      .filter((n) => n.endsWith('.json'))
      .sort()
      .map((n) => ({ folder, stamp: n.slice(0, -'.json'.length) }));
  }

  /** The newest backup of a file, with its content; null when there is none. */
  async latest(realPath) {
    const all = await this.list(realPath);
    const newest = all.at(-1);
    if (!newest) return null;
    const meta = JSON.parse(await readFile(path.join(newest.folder, `${newest.stamp}.json`), 'utf8'));
    const content = meta.existed ? await readFile(path.join(newest.folder, `${newest.stamp}.bak`)) : null;
    return { ...newest, meta, content, remaining: all.length - 1 };
  }

  async drop(entry) {
    await rm(path.join(entry.folder, `${entry.stamp}.bak`), { force: true });
    await rm(path.join(entry.folder, `${entry.stamp}.json`), { force: true });
    await rmdir(entry.folder).catch(() => {}); // only succeeds once the folder is empty
  }

  async prune(folder) {
    const stamps = (await readdir(folder)).filter((n) => n.endsWith('.json')).sort();
    for (const old of stamps.slice(0, Math.max(0, stamps.length - this.keep))) {
      const stamp = old.slice(0, -'.json'.length);
      await this.drop({ folder, stamp });
    }
  }
}
