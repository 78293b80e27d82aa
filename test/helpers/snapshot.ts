/** A folder's exact content (paths, kinds, modes, bytes), to prove a refused install changed nothing. */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export function snapshot(root: string, ignore: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    let names: string[];
    try {
      names = readdirSync(path.join(root, rel));
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (ignore(r)) continue;
      const st = lstatSync(path.join(root, r));
      if (st.isDirectory()) {
        out[`${r}/`] = `dir ${(st.mode & 0o777).toString(8)}`;
        walk(r);
      } else if (st.isSymbolicLink()) out[r] = 'link';
      else
        out[r] = `${(st.mode & 0o777).toString(8)} ${createHash('sha256')
          .update(readFileSync(path.join(root, r)))
          .digest('hex')}`;
    }
  };
  walk('');
  return out;
}
