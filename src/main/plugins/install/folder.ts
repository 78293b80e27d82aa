/**
 * Copies a plugin folder into a staging folder. What the mcpb CLI leaves out of a bundle is left
 * out here too (exclusions.ts), so a folder installed right after `npm install` holds what its
 * bundle would. Symbolic links are copied as links when they stay inside the folder (npm makes
 * them for package binaries) and refused when they point outside it or nowhere. More entries or
 * bytes than allowed are refused, each named by the path at fault.
 */
import {
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { isInside } from '../../fs';
import { exclusions } from './exclusions';
import { mib, refuse, type InstallLimits, type Refusal } from './limits';
import { INSTALLED_DIR_MODE, installedFileMode } from './modes';

export interface Copied {
  ok: true;
  entries: number;
  bytes: number;
  /** Entries left out by the bundle exclusions (`.git`, `node_modules/.bin`, `.mcpbignore`…). */
  skipped: number;
}

interface Item {
  rel: string;
  kind: 'dir' | 'file' | 'link';
  size: number;
  /** For a link: its target, relative to the link's own folder, inside the plugin. */
  target?: string;
}

/** Walks the folder and checks it; nothing is written. */
function survey(src: string, limits: InstallLimits): { items: Item[]; skipped: number } | Refusal {
  const items: Item[] = [];
  const root = realpathSync(src);
  const excluded = exclusions(src);
  let bytes = 0;
  let skipped = 0;
  const walk = (rel: string): Refusal | null => {
    for (const name of readdirSync(path.join(src, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(path.join(src, r));
      if (excluded(r, st.isDirectory())) {
        skipped++;
        continue;
      }
      let item: Item;
      if (st.isSymbolicLink()) {
        const link = checkLink(root, src, r);
        if (!link.ok) return link;
        item = { rel: r, kind: 'link', size: 0, target: link.target };
      } else if (st.isDirectory() || st.isFile()) {
        item = { rel: r, kind: st.isDirectory() ? 'dir' : 'file', size: st.isFile() ? st.size : 0 };
      } else {
        return refuse(`"${r}" is neither a file nor a folder`);
      }
      items.push(item);
      if (items.length > limits.maxEntries)
        return refuse(`the folder has more than ${limits.maxEntries} entries (at "${r}")`);
      bytes += item.size;
      if (bytes > limits.maxBytes) return refuse(`the folder holds more than ${mib(limits.maxBytes)} (at "${r}")`);
      if (item.kind === 'dir') {
        const bad = walk(r);
        if (bad) return bad;
      }
    }
    return null;
  };
  const bad = walk('');
  return bad ?? { items, skipped };
}

/**
 * A link may point anywhere inside the plugin folder, through other links too; it is recreated as
 * a relative link, so the copy points into the copy and not back at the source folder.
 */
function checkLink(root: string, src: string, rel: string): { ok: true; target: string } | Refusal {
  let real: string;
  try {
    real = realpathSync(path.join(src, rel));
  } catch {
    return refuse(`"${rel}" is a symbolic link to something that does not exist`);
  }
  if (!isInside(root, real) || real === root) {
    return refuse(
      `"${rel}" is a symbolic link to ${real}, outside the plugin folder; plugins may only link inside themselves`,
    );
  }
  const linkDir = path.dirname(path.join(root, rel));
  return { ok: true, target: path.relative(linkDir, real) };
}

export function copyFolder(src: string, dest: string, limits: InstallLimits): Copied | Refusal {
  const surveyed = survey(src, limits);
  if (!('items' in surveyed)) return surveyed;
  const { items, skipped } = surveyed;
  mkdirSync(dest, { recursive: true });
  let bytes = 0;
  for (const it of items) {
    const target = path.join(dest, ...it.rel.split('/'));
    if (it.kind === 'dir') mkdirSync(target, { recursive: true, mode: INSTALLED_DIR_MODE });
    else if (it.kind === 'link') {
      const linked = path.join(src, ...it.rel.split('/'));
      // Windows needs to know whether a link is to a folder.
      symlinkSync(it.target as string, target, statSync(linked).isDirectory() ? 'dir' : 'file');
    } else {
      copyFileSync(path.join(src, ...it.rel.split('/')), target);
      // copyFile keeps the source's mode, setuid and world-writable bits included: masked (modes.ts).
      chmodSync(target, installedFileMode(statSync(target).mode));
      bytes += it.size;
    }
  }
  return { ok: true, entries: items.length, bytes, skipped };
}
