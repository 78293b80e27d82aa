/**
 * The record of a plugin's installed package, `<plugin>/.plugboard/packages.json`: what the
 * manifest's command asked for (`npx -y @modelcontextprotocol/server-memory`), the version it was
 * resolved to and pinned at with the registry's integrity hash, the lock of everything installed
 * with it, and the command that runs it from the plugin's folder instead
 * (`node ${__dirname}/.plugboard/npm/node_modules/…/dist/index.js`). The record applies to the
 * command it was made for and to nothing else: a manifest whose command changed runs as written.
 *
 * Plugboard writes the record after the install step, and it is never taken from a package: the
 * installer removes a `.plugboard` folder a package brings before anything runs (install.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Plugboard's own folder in a plugin: the packages, the record, the Python launcher. */
export const PACKAGES_DIR = '.plugboard';
export const RECORD_FILE = 'packages.json';

const Record = z.object({
  version: z.literal(1),
  /** The command as the manifest writes it (placeholders kept). */
  command: z.array(z.string()),
  ecosystem: z.enum(['npm', 'pypi']),
  runner: z.string(),
  /** The package as asked for (`pkg@^1`, `pkg==1.2`), empty for a bundle's own dependencies. */
  spec: z.string(),
  name: z.string(),
  /** The version installed and its integrity hash as the registry gave it (`sha512-…`, `sha256-…`). */
  version_installed: z.string(),
  integrity: z.string().nullable(),
  /** What runs instead of `command` (placeholders kept: `${__dirname}`). */
  launch: z.array(z.string()),
  /** Environment the launch adds. */
  env: z.record(z.string(), z.string()),
  /** The lock of everything installed, relative to the plugin folder. */
  lock: z.string(),
  /** How many packages were installed with it. */
  packages: z.number().int().nonnegative(),
  installed_at: z.string(),
});

export type PackageRecord = z.infer<typeof Record>;

export function recordPath(pluginDir: string): string {
  return path.join(pluginDir, PACKAGES_DIR, RECORD_FILE);
}

/** The plugin's package record, or null (none, or one that does not read). */
export function readRecord(pluginDir: string): PackageRecord | null {
  let text: string;
  try {
    text = readFileSync(recordPath(pluginDir), 'utf8');
  } catch {
    return null;
  }
  try {
    const r = Record.safeParse(JSON.parse(text));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((w, i) => w === b[i]);
}

/** The record that applies to this command in this folder: it was made for exactly this command. */
export function recordFor(pluginDir: string, command: readonly string[]): PackageRecord | null {
  const r = readRecord(pluginDir);
  return r && sameWords(r.command, command) ? r : null;
}

/**
 * The command as the manifest writes it (`npx -y pkg@1.2.3 …`) of a spec that runs its installed
 * package instead (`withInstalledPackage`): what names the package and its pin. Any other spec's
 * command is its own.
 */
export function writtenCommand(
  spec: { dir: string; command: readonly string[] },
  /** The folder's record, where the caller has read it already. */
  r: PackageRecord | null = readRecord(spec.dir),
): readonly string[] {
  return r && sameWords(r.launch, spec.command) ? r.command : spec.command;
}

/**
 * A spec as it runs once its package is installed: the record's command in place of the runner,
 * its environment added. A spec without a record that applies is returned as it is.
 */
export function withInstalledPackage<T extends { dir: string; command: string[]; env: Record<string, string> }>(
  spec: T,
): T {
  const r = recordFor(spec.dir, spec.command);
  return r ? { ...spec, command: [...r.launch], env: { ...spec.env, ...r.env } } : spec;
}
