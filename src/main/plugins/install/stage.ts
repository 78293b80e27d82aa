/**
 * Stages an install: unpacks or copies the source into a private folder under the data
 * directory's staging area, reads its manifest and checks everything that can be checked before
 * the plugin is activated. Nothing outside the staging area is touched; a refusal removes it.
 */
import { existsSync, readdirSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PluginSpec } from '../../../shared/plugin';
import { describeManifestErrors, findManifest, loadManifest, MANIFEST_FILES, toId } from '../manifests';
import { isInside } from '../../fs';
import { placeholderEscape, resolveSettingValues, substitute } from '../../host';
import type { DataPaths } from '../data-paths';
import { PACKAGES_DIR } from '../packages/record';
import { copyFolder } from './folder';
import { DEFAULT_LIMITS, refuse, type InstallLimits, type Refusal } from './limits';
import { makeStagingArea } from './staging-area';
import { unpackZip } from './zip';

export type SourceKind = 'folder' | 'zip' | 'mcpb';

export interface Staged {
  ok: true;
  spec: PluginSpec;
  warnings: string[];
  kind: SourceKind;
  /** The staged plugin folder, to be moved into place. */
  dir: string;
  entries: number;
  bytes: number;
  /** Removes what staging wrote (the staging area too, when it is left empty). */
  discard(): void;
}

const ARCHIVE = /\.(zip|mcpb|dxt)$/i;

export function sourceKind(source: string): SourceKind | null {
  let st;
  try {
    st = statSync(source);
  } catch {
    return null;
  }
  if (st.isDirectory()) return 'folder';
  if (ARCHIVE.test(source)) return /\.zip$/i.test(source) ? 'zip' : 'mcpb';
  return null;
}

export async function stage(
  source: string,
  paths: DataPaths,
  limits: InstallLimits = DEFAULT_LIMITS,
): Promise<Staged | Refusal> {
  const abs = path.resolve(source);
  const kind = sourceKind(abs);
  if (!kind) {
    if (!existsSync(abs)) return refuse(`${abs} does not exist`);
    return refuse(`${path.basename(abs)} is not a plugin folder, a .zip, or an .mcpb/.dxt bundle`);
  }
  // The uploads folder is where `plugboard serve` keeps what the page uploaded: its own to install from.
  if (isInside(paths.root, abs) && !isInside(paths.uploads, abs))
    return refuse(`${abs} is inside the data directory; install from somewhere else`);

  const stagingExisted = existsSync(paths.staging);
  const area = makeStagingArea(paths, 'install');
  const discard = (): void => {
    rmSync(area, { recursive: true, force: true });
    if (!stagingExisted) removeIfEmpty(paths.staging);
  };

  // The folder name matters: a G-Assist plugin's id is its folder's name.
  const unpackTo = path.join(area, 'unpacked');
  let entries: number;
  let bytes: number;
  let folderName: string;
  try {
    if (kind === 'folder') {
      const r = copyFolder(abs, unpackTo, limits);
      if (!r.ok) return fail(discard, r);
      ({ entries, bytes } = r);
      folderName = path.basename(abs);
    } else {
      const r = await unpackZip(abs, unpackTo, limits);
      if (!r.ok) return fail(discard, r);
      ({ entries, bytes } = r);
      folderName = r.wrapper ?? path.basename(abs).replace(ARCHIVE, '');
    }
  } catch (e) {
    // An unreadable file, a full disk: the system's message names the path at fault.
    return fail(
      discard,
      refuse(`could not ${kind === 'folder' ? 'copy' : 'unpack'} ${path.basename(abs)}: ${(e as Error).message}`),
    );
  }
  const dir = path.join(area, toId(withoutVersion(folderName)));
  try {
    // Rename into a folder named like the plugin before reading the manifest.
    renameSync(unpackTo, dir);
  } catch (e) {
    return fail(discard, refuse(`could not stage the plugin: ${(e as Error).message}`));
  }
  // Plugboard's own record of an installed package is written by Plugboard, never taken from a
  // package (packages/record.ts): a copied plugin folder gets its package installed afresh.
  rmSync(path.join(dir, PACKAGES_DIR), { recursive: true, force: true });
  if (!findManifest(dir)) {
    return fail(
      discard,
      refuse(
        `no manifest found in ${path.basename(abs)}: looked for ${MANIFEST_FILES.join(', ')} at its top level (or inside its single top-level folder)`,
      ),
    );
  }
  const m = loadManifest(dir);
  if (!m.ok) return fail(discard, refuse(`invalid manifest ${describeManifestErrors(m).replace(area + path.sep, '')}`));
  const outside = executableOutside(m.spec);
  if (outside) return fail(discard, refuse(outside));
  return { ok: true, spec: m.spec, warnings: m.warnings, kind, dir, entries, bytes, discard };
}

/**
 * A folder or archive name without its version: `weather-1.2.0` → `weather`, `hello_v2.1.0-beta.1`
 * → `hello`, `tool-v3` → `tool`. GitHub release archives wrap their content in `<repo>-<version>`,
 * and a G-Assist plugin's id is its folder's name, so the version must not become part of the id
 * (an upgrade would install beside the old one). Branch names (`-main`) and bare numbers that are
 * not versions (`mcp-server-2`) are kept. Other formats take their id from the manifest.
 */
export function withoutVersion(name: string): string {
  const m = /^(.+?)[-_](?:v?\d+(?:\.\d+)+(?:[-+][0-9A-Za-z.-]+)?|v\d+)$/i.exec(name);
  return m ? (m[1] as string) : name;
}

/** Removes a folder that is empty; one another writer is using stays. */
export function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // gone already, or someone else is staging too
  }
}

function fail(discard: () => void, r: Refusal): Refusal {
  discard();
  return r;
}

/**
 * A relative executable or script (`./server.py`, `${__dirname}/server/index.js`) must be inside
 * the plugin folder and exist; a `${HOME}/…`-style path must not climb out of its folder. Checked
 * on the command as it will run, placeholders and setting defaults substituted, so no spelling
 * slips past. Absolute paths (`node /abs/path/server.js`, as people write in the configs they
 * import) are their author's choice, checked at launch; programs found on PATH are allowed.
 */
export function executableOutside(spec: PluginSpec, home: string = os.homedir()): string | null {
  // A remote MCP server runs nothing here.
  if (spec.remote) return null;
  if (!spec.command[0]) return 'the manifest gives no command to run';
  const base = { dirname: spec.dir, home };
  const defaults = resolveSettingValues(spec.settings, {}, base);
  const values = 'values' in defaults ? defaults.values : {};
  const words: Array<{ written: string; value: string | null }> = [];
  for (const [i, written] of spec.command.entries()) {
    const escape = placeholderEscape(written, base);
    if (escape) return `the ${i === 0 ? 'executable' : 'argument'} ${escape}`;
    // A word that depends on a setting without a default is checked at launch, once it has a value.
    const unset = [...written.matchAll(/\$\{user_config\.([^}]+)\}/g)].some(
      (m) => values[m[1] as string] === undefined,
    );
    const r = unset ? null : substitute(written, { ...base, values }, i === 0 ? 'command' : `args[${i - 1}]`);
    if (r && !Array.isArray(r)) return r.message;
    words.push({ written, value: r ? r.join(' ') : null });
  }
  const check = (w: { written: string; value: string | null }, what: string): string | null => {
    if (w.value === null) return null;
    if (path.isAbsolute(w.value) && !w.written.startsWith('${__dirname}')) return null;
    const target = path.resolve(spec.dir, w.value);
    if (!isInside(spec.dir, target)) return `the ${what} "${w.written}" is outside the plugin folder`;
    if (!existsSync(target))
      return `the ${what} "${w.written}" is not in the plugin (looked for ${path.relative(spec.dir, target)})`;
    return null;
  };
  const [head, ...rest] = words as [(typeof words)[number], ...typeof words];
  const h = head.value ?? '';
  if (h.includes('/') || h.includes('\\') || /\.(py|js|mjs|cjs)$/i.test(h)) {
    const bad = check(head, 'executable');
    if (bad) return bad;
  }
  const name = path.basename(h).toLowerCase();
  if (/^(python[\d.]*|node|bun|deno)(\.exe)?$/.test(name)) {
    const script = rest.find((a) => !a.written.startsWith('-'));
    if (script?.value && (script.value.includes('/') || /\.(py|js|mjs|cjs)$/i.test(script.value)))
      return check(script, 'script');
  }
  return null;
}
