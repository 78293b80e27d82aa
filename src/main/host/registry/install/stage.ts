/**
 * Stages an install: unpacks or copies the source into a private folder under the data
 * directory's staging area, reads its manifest and checks everything that can be checked before
 * the plugin is activated. Nothing outside the staging area is touched; a refusal removes it.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { PluginSpec } from '../../../../shared/model';
import { describeManifestErrors, findManifest, loadManifest, MANIFEST_FILES, toId } from '../../manifests';
import { isInside } from '../../../fs';
import type { DataPaths } from '../paths';
import { copyFolder } from './folder';
import { DEFAULT_LIMITS, refuse, type InstallLimits, type Refusal } from './limits';
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

export async function stage(source: string, paths: DataPaths, limits: InstallLimits = DEFAULT_LIMITS): Promise<Staged | Refusal> {
  const abs = path.resolve(source);
  const kind = sourceKind(abs);
  if (!kind) {
    if (!existsSync(abs)) return refuse(`${abs} does not exist`);
    return refuse(`${path.basename(abs)} is not a plugin folder, a .zip, or an .mcpb/.dxt bundle`);
  }
  if (isInside(paths.root, abs)) return refuse(`${abs} is inside the data directory; install from somewhere else`);

  const stagingExisted = existsSync(paths.staging);
  mkdirSync(paths.staging, { recursive: true });
  const area = mkdtempSync(path.join(paths.staging, 'install-'));
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
    return fail(discard, refuse(`could not ${kind === 'folder' ? 'copy' : 'unpack'} ${path.basename(abs)}: ${(e as Error).message}`));
  }
  const dir = path.join(area, toId(folderName));
  try {
    // Rename into a folder named like the plugin before reading the manifest.
    renameSync(unpackTo, dir);
  } catch (e) {
    return fail(discard, refuse(`could not stage the plugin: ${(e as Error).message}`));
  }
  if (!findManifest(dir)) {
    return fail(discard, refuse(`no manifest found in ${path.basename(abs)}: looked for ${MANIFEST_FILES.join(', ')} at its top level (or inside its single top-level folder)`));
  }
  const m = loadManifest(dir);
  if (!m.ok) return fail(discard, refuse(`invalid manifest ${describeManifestErrors(m).replace(area + path.sep, '')}`));
  const outside = executableOutside(m.spec);
  if (outside) return fail(discard, refuse(outside));
  return { ok: true, spec: m.spec, warnings: m.warnings, kind, dir, entries, bytes, discard };
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
 * An executable named by path must be inside the plugin folder (and exist); so must a script
 * given to an interpreter. Programs found on PATH (node, python3, uv…) are allowed.
 */
export function executableOutside(spec: PluginSpec): string | null {
  const [head, ...rest] = spec.command.map((c) => c.replace(/\$\{__dirname\}/g, spec.dir));
  if (!head) return 'the manifest gives no command to run';
  const check = (p: string, what: string): string | null => {
    if (p.includes('${')) return null; // depends on a setting; checked at launch
    const target = path.resolve(spec.dir, p);
    if (!isInside(spec.dir, target)) return `the ${what} "${p}" is outside the plugin folder`;
    if (!existsSync(target)) return `the ${what} "${p}" is not in the plugin (looked for ${path.relative(spec.dir, target)})`;
    return null;
  };
  if (head.includes('/') || head.includes('\\') || /\.(py|js|mjs|cjs)$/i.test(head)) {
    const bad = check(head, 'executable');
    if (bad) return bad;
  }
  const base = path.basename(head).toLowerCase();
  if (/^(python[\d.]*|node|bun|deno)(\.exe)?$/.test(base)) {
    const script = rest.find((a) => !a.startsWith('-'));
    if (script && (script.includes('/') || /\.(py|js|mjs|cjs)$/i.test(script))) return check(script, 'script');
  }
  return null;
}
