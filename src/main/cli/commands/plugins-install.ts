/**
 * `plugboard plugins install SOURCE`: stages the package, installs its runner's package (npx,
 * uvx…) into it, pinned, showing the package step's lines on stderr as they come, and installs it
 * with what it requests granted, the folders and files its arguments and environment name
 * (as the app's preview offers them), and what `--grant` and `--folder` add.
 */
import type { PluginRegistry } from '../../plugins';
import os from 'node:os';
import path from 'node:path';
import type { FolderGrant } from '../../../shared/capabilities';
import type { Failure } from '../../../shared/failures';
import { scanTools } from '../../../shared/tool-scan';
import { revealed } from '../../../shared/visible-text';
import { EXIT_FAILED, EXIT_OK, jsonLine, UsageError, type Out } from '../io';

export interface InstallFlags {
  json?: boolean | undefined;
  replace?: boolean | undefined;
  grant?: string[] | undefined;
  'grant-none'?: boolean | undefined;
  folder?: string[] | undefined;
}

export async function installCommand(
  registry: PluginRegistry,
  source: string,
  values: InstallFlags,
  out: Out,
): Promise<number> {
  const json = values.json === true;
  const grant = values['grant-none'] ? 'none' : values.grant?.length ? values.grant : 'requested';
  const addFolders = (values.folder ?? []).map(parseFolder);
  const r = await registry.installer.install(source, {
    replace: values.replace === true,
    grant,
    ...(addFolders.length > 0 ? { addFolders } : {}),
    onProgress: (line) => out.stderr(`  ${line}\n`),
  });
  if (!r.ok) return refusal(out, json, r);
  // Flags inform (tool-scan.ts): descriptions that address the model, hidden text, shadowing names.
  const flags = scanTools(r.id, registry.tools(r.id), registry.everyTool());
  if (json) {
    jsonLine(out, { ...r, flags });
    return EXIT_OK;
  }
  // What the package's checks warned about (a secret in the command line…), as the app's preview shows it.
  for (const w of r.warnings ?? []) out.stderr(`warning: ${w}\n`);
  for (const f of flags)
    out.stderr(
      `flag: ${revealed(f.tool, { name: true })}: ${f.message}${f.excerpt ? `: “${revealed(f.excerpt)}”` : ''}\n`,
    );
  out.stdout(`${r.detail}\n`);
  if (r.pinned)
    out.stdout(
      `package: ${r.pinned.spec || 'its dependencies'} pinned at ${r.pinned.version || '(a lock)'}${r.pinned.integrity ? ` (${r.pinned.integrity})` : ''}, ${r.pinned.packages} packages: it starts from its folder, without the network\n`,
    );
  out.stdout(`granted: ${r.granted.join(', ') || 'nothing'}\n`);
  for (const f of r.folders) out.stdout(`granted ${f.write ? 'read-write' : 'read-only'}: ${f.path}\n`);
  if (r.newlyRequested.length)
    out.stdout(
      `requested by the new version, not granted: ${r.newlyRequested.join(', ')} (plugboard plugins grant ${r.id} …)\n`,
    );
  return EXIT_OK;
}

/** `--folder PATH` (read-write) or `--folder PATH:ro` (read-only). */
export function parseFolder(value: string): FolderGrant {
  const ro = /:ro$/.test(value);
  const raw = value.replace(/:(ro|rw)$/, '');
  const p = path.resolve(raw.replace(/^~(?=$|\/)/, os.homedir()));
  if (!raw) throw new UsageError(`--folder takes a path, got "${value}"`);
  return { path: p, write: !ro };
}

export function refusal(out: Out, json: boolean, r: Failure): number {
  if (json) jsonLine(out, { ok: false, code: r.code, error: r.message });
  else out.stderr(`refused: ${r.message}\n`);
  return EXIT_FAILED;
}
