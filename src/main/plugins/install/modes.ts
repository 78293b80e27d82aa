/**
 * The file modes an installed plugin's files get, whatever the package says. A zip entry carries
 * any Unix mode its maker chose (04777: setuid and world-writable), and a copied folder keeps its
 * files' modes: installed as they are, another user could rewrite the plugin's code, or a setuid
 * program would run as its owner. Only the owner's bits and read/execute for others survive.
 */

/** No setuid, setgid or sticky bit, nothing writable by group or others. */
const KEPT = 0o755;

/** The mode to give an installed file: readable, its execute bits kept (a launcher script), the rest masked. */
export function installedFileMode(mode: number): number {
  return (mode & KEPT) | 0o644;
}

/** Folders are 0755 whatever the package says (the owner must be able to remove them). */
export const INSTALLED_DIR_MODE = 0o755;
