/** Path predicates shared by the host (plugin folders, archives) and the service (uploads). */
import path from 'node:path';

/** `child` lies inside `parent` (both real paths), or is it. */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
