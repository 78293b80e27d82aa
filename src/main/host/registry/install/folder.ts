/**
 * Copies a plugin folder into a staging folder, refusing symbolic links (they could point
 * anywhere), more entries or bytes than allowed, each named by the path at fault.
 */
import { copyFileSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { mib, refuse, type InstallLimits, type Refusal } from './limits';

export interface Copied {
  ok: true;
  entries: number;
  bytes: number;
}

interface Item {
  rel: string;
  dir: boolean;
  size: number;
}

/** Walks the folder and checks it; nothing is written. */
function survey(src: string, limits: InstallLimits): Item[] | Refusal {
  const items: Item[] = [];
  let bytes = 0;
  const walk = (rel: string): Refusal | null => {
    for (const name of readdirSync(path.join(src, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(path.join(src, r));
      if (st.isSymbolicLink()) return refuse(`"${r}" is a symbolic link; plugins may not contain links`);
      if (!st.isDirectory() && !st.isFile()) return refuse(`"${r}" is neither a file nor a folder`);
      items.push({ rel: r, dir: st.isDirectory(), size: st.isFile() ? st.size : 0 });
      if (items.length > limits.maxEntries) return refuse(`the folder has more than ${limits.maxEntries} entries (at "${r}")`);
      bytes += st.isFile() ? st.size : 0;
      if (bytes > limits.maxBytes) return refuse(`the folder holds more than ${mib(limits.maxBytes)} (at "${r}")`);
      if (st.isDirectory()) {
        const bad = walk(r);
        if (bad) return bad;
      }
    }
    return null;
  };
  const bad = walk('');
  return bad ?? items;
}

export function copyFolder(src: string, dest: string, limits: InstallLimits): Copied | Refusal {
  const items = survey(src, limits);
  if (!Array.isArray(items)) return items;
  mkdirSync(dest, { recursive: true });
  let bytes = 0;
  for (const it of items) {
    const target = path.join(dest, ...it.rel.split('/'));
    if (it.dir) mkdirSync(target, { recursive: true });
    else {
      copyFileSync(path.join(src, ...it.rel.split('/')), target);
      bytes += it.size;
    }
  }
  return { ok: true, entries: items.length, bytes };
}
