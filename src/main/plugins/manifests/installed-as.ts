/**
 * A plugin installed under another id than its manifest gives (`plugboard plugins install --id`,
 * the study's .mcpb named "filesystem" beside an imported filesystem server): Plugboard writes the
 * id it was installed as into the plugin's own `.plugboard/` folder, which no package may ship
 * (install/stage.ts removes it), and reading the manifest of that folder gives that id. The
 * manifest's own id is kept beside it: an update of the plugin is checked against that.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { ID_PATTERN } from './common';

const FILE = path.join('.plugboard', 'installed-as.json');

export interface InstalledAs {
  /** The id it was installed as. */
  id: string;
  /** The id its manifest gives. */
  manifestId: string;
}

export function readInstalledAs(dir: string): InstalledAs | null {
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(path.join(dir, FILE), 'utf8'));
  } catch {
    return null;
  }
  const r = v as Partial<InstalledAs> | null;
  return typeof r?.id === 'string' && ID_PATTERN.test(r.id) && typeof r.manifestId === 'string'
    ? { id: r.id, manifestId: r.manifestId }
    : null;
}

export function writeInstalledAs(dir: string, as: InstalledAs): void {
  mkdirSync(path.join(dir, '.plugboard'), { recursive: true });
  writeFileSync(path.join(dir, FILE), `${JSON.stringify(as)}\n`);
}
