/**
 * Finds and reads a plugin's manifest, in any format Plugboard knows, into one PluginSpec.
 * Every error names the file and the field at fault.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { manifestTooLarge, oversizedFields, secretsInCommand } from './bounds';
import { invalid, type ManifestResult } from './common';
import { looksLikeGAssist, readGAssist } from './gassist';
import { looksLikeMcpb, readMcpb } from './mcpb';
import { readMehrhof } from './mehrhof';
import { readPlugboard } from './plugboard';
import { readRterm } from './rterm';
import { withInstalledPackage } from '../packages/record';
import { readInstalledAs } from './installed-as';

export type { ManifestResult } from './common';
export { ID_PATTERN, RESERVED_IDS, toId } from './common';
export { readInstalledAs, writeInstalledAs, type InstalledAs } from './installed-as';

/** Manifest file names, in the order they are looked for in a plugin folder. */
export const MANIFEST_FILES = [
  'plugboard.json',
  'rterm-plugin.json',
  'plugin.yaml',
  'plugin.yml',
  'manifest.json',
] as const;

/** The manifest file of a folder, or null. */
export function findManifest(dir: string): string | null {
  for (const name of MANIFEST_FILES) {
    const f = path.join(dir, name);
    try {
      if (statSync(f).isFile()) return f;
    } catch {
      // not this one
    }
  }
  return null;
}

/** Reads a plugin from its folder or its manifest file. */
export function loadManifest(target: string): ManifestResult {
  const abs = path.resolve(target);
  let st;
  try {
    st = statSync(abs);
  } catch {
    return invalid(abs, [`${abs} does not exist`]);
  }
  const file = st.isDirectory() ? findManifest(abs) : abs;
  if (!file) return invalid(abs, [`no manifest found in ${abs}: looked for ${MANIFEST_FILES.join(', ')}`]);
  let text: string;
  try {
    const tooLarge = manifestTooLarge(statSync(file).size);
    if (tooLarge) return invalid(file, [tooLarge]);
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return invalid(file, [`cannot read: ${(e as Error).message}`]);
  }
  const r = readManifestText(file, text);
  // Installed under another id (installed-as.ts), where its manifest still gives the one it had.
  const as = r.ok ? readInstalledAs(path.dirname(file)) : null;
  return r.ok && as && as.manifestId === r.spec.id ? { ...r, spec: { ...r.spec, id: as.id } } : r;
}

/** Reads a manifest's text, then holds the spec to the size limits (bounds.ts). */
export function readManifestText(file: string, text: string): ManifestResult {
  const tooLarge = manifestTooLarge(Buffer.byteLength(text));
  if (tooLarge) return invalid(file, [tooLarge]);
  const r = readAnyFormat(file, text);
  if (!r.ok) return r;
  const oversized = oversizedFields(r.spec);
  if (oversized.length > 0) return invalid(file, oversized);
  // A package runner whose package Plugboard installed runs from the plugin folder (packages/).
  const spec = withInstalledPackage(r.spec);
  return { ...r, spec, warnings: [...r.warnings, ...secretsInCommand(spec)] };
}

function readAnyFormat(file: string, text: string): ManifestResult {
  const base = path.basename(file);
  const isYaml = /\.ya?ml$/i.test(base);
  let json: unknown;
  try {
    json = isYaml ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    return invalid(file, [isYaml ? yamlError(e) : jsonError(e, text)]);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return invalid(file, ['(top level): expected an object']);
  }
  const obj = json as Record<string, unknown>;
  if (isYaml) return readMehrhof(file, obj);
  if (base === 'plugboard.json') return readPlugboard(file, obj);
  if (base === 'rterm-plugin.json') return readRterm(file, obj);
  // A plugboard.json under another name says so with protocol + command; check it first, or its
  // `functions` would make it look like a G-Assist manifest.
  if ('protocol' in obj && 'command' in obj && 'id' in obj) return readPlugboard(file, obj);
  if (looksLikeMcpb(obj)) return readMcpb(file, obj);
  if (looksLikeGAssist(obj)) return readGAssist(file, obj);
  return invalid(file, [
    '(top level): not a manifest Plugboard knows: expected a G-Assist manifest (executable, functions) or an MCPB manifest (manifest_version, server)',
  ]);
}

function jsonError(e: unknown, text: string): string {
  const msg = (e as Error).message;
  const pos = /position (\d+)/.exec(msg);
  if (pos) {
    const upto = text.slice(0, Number(pos[1]));
    const line = upto.split('\n').length;
    const col = upto.length - upto.lastIndexOf('\n');
    return `not valid JSON at line ${line}, column ${col}: ${msg}`;
  }
  return `not valid JSON: ${msg}`;
}

function yamlError(e: unknown): string {
  if (e instanceof YAMLParseError && e.linePos) {
    return `not valid YAML at line ${e.linePos[0].line}, column ${e.linePos[0].col}: ${e.message.split('\n')[0]}`;
  }
  return `not valid YAML: ${(e as Error).message}`;
}

export function describeManifestErrors(r: Extract<ManifestResult, { ok: false }>): string {
  return `${r.file}:\n${r.errors.map((e) => `  ${e}`).join('\n')}`;
}
