/**
 * Installing the servers a person chose from another app's config: each becomes a plugin folder
 * written to a scratch folder, installed through the registry like any dropped folder (staged,
 * checked whole, moved into place), and its secret values go to the secret store through the
 * registry's own `configure`, never into a file. One server's refusal does not stop the others.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FolderGrant } from '../../../shared/capabilities';
import { failure, type Failure, type Outcome } from '../../../shared/failures';
import type { PluginRegistry } from '../registry/registry';
import type { ImportedConfig, ServerPreview } from './preview';
import { writeImportedPlugin } from './write';

export interface ImportChoice {
  /** Servers to install, by key, id or name. Default: every one that can run and is switched on. */
  only?: string[];
  /** Environment variable names to keep as secrets. Default: the ones the preview flags. */
  secret?: string[];
  /** By key: the network, and the folders granted by path. Default: the folders offered, no network. */
  grants?: Record<string, { net: boolean; folders: FolderGrant[] }>;
  /** By key: the plugin id to install it as, instead of the one offered. */
  ids?: Record<string, string>;
  /** Keys of servers run from a folder of the person's to copy into Plugboard (write.ts `copy`). */
  copy?: string[];
  /** Each line of a server's package step (prefixed with its name). */
  onProgress?: (line: string) => void;
}

export interface ImportedOne {
  key: string;
  name: string;
  id: string;
  outcome: Outcome<{ detail: string; id: string }>;
}

/** The servers `choice.only` names, or why a name matches none of them. */
export function chooseServers(
  config: ImportedConfig,
  only: string[] | undefined,
): Outcome<{ chosen: ServerPreview[] }> {
  if (!only || only.length === 0) return { ok: true, chosen: config.previews.filter((p) => p.runnable && !p.disabled) };
  const chosen: ServerPreview[] = [];
  for (const name of only) {
    const p = config.previews.find((x) => x.key === name || x.id === name || x.name === name);
    if (!p) {
      const names = config.previews.map((x) => (x.key === x.id ? x.id : `${x.id} (“${x.key}”)`)).join(', ');
      return failure('invalid_input', `${path.basename(config.file)} has no server "${name}"; it has: ${names}`);
    }
    if (!chosen.includes(p)) chosen.push(p);
  }
  return { ok: true, chosen };
}

export async function installImported(
  registry: PluginRegistry,
  config: ImportedConfig,
  choice: ImportChoice = {},
): Promise<Outcome<{ results: ImportedOne[] }> | Failure> {
  const picked = chooseServers(config, choice.only);
  if (!picked.ok) return picked;
  if (picked.chosen.length === 0)
    return failure(
      'invalid_input',
      `${path.basename(config.file)} has no server that can be installed (${describeNone(config.previews)})`,
    );
  const results: ImportedOne[] = [];
  for (const p of picked.chosen) {
    const outcome = await installOne(registry, config, p, choice);
    results.push({ key: p.key, name: p.name, id: outcome.ok ? outcome.id : (choice.ids?.[p.key] ?? p.id), outcome });
  }
  return { ok: true, results };
}

async function installOne(
  registry: PluginRegistry,
  config: ImportedConfig,
  p: ServerPreview,
  choice: ImportChoice,
): Promise<Outcome<{ detail: string; id: string }>> {
  const { secret } = choice;
  const id = choice.ids?.[p.key] ?? p.id;
  const grants = choice.grants?.[p.key];
  if (!p.runnable)
    return failure('install_refused', `${p.name} cannot be imported: ${p.problem ?? 'it cannot run here'}`);
  // The folder is copied into the data directory by the install; this one is only its source.
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'plugboard-import-'));
  try {
    const names = secret
      ? secret.filter((n) => p.env.some((e) => e.name === n) || p.headers.some((h) => h.name === n))
      : undefined;
    const written = writeImportedPlugin(config, p.key, path.join(scratch, id), {
      id,
      ...(names ? { secret: names } : {}),
      ...(choice.copy?.includes(p.key) ? { copy: true } : {}),
    });
    if (!written.ok) return written;
    // Unchosen, the paths the person's own config names are theirs and granted; a catalog
    // entry's are its publisher's, granted only when picked (the installer grants none itself).
    const folders =
      grants?.folders ??
      (config.app === 'mcp-registry' ? [] : p.paths.map(({ path: at, write }) => ({ path: at, write })));
    const r = await registry.installer.install(written.dir, {
      grant: 'requested',
      folders,
      // From a config file, the network only where the person ticked it (--net): a remote server
      // too, which is then installed but contacts nothing until it is granted (red team M02). A
      // catalog entry's way to run was picked by the person, remote or not, as a plugin's install.
      ...(grants?.net ? { extra: ['net'] } : config.app === 'mcp-registry' ? {} : { withhold: ['net'] }),
      ...(choice.onProgress ? { onProgress: (line: string) => choice.onProgress?.(`${p.name}: ${line}`) } : {}),
    });
    if (!r.ok) return r;
    const values = { ...written.folders, ...written.secrets };
    if (Object.keys(values).length > 0) {
      const stored = await registry.decisions.configure(r.id, values);
      if (!stored.ok)
        return failure(
          stored.code,
          `${p.name} was installed as ${r.id}, but its settings could not be stored: ${stored.message}`,
        );
    }
    return { ok: true, id: r.id, detail: r.detail };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function describeNone(previews: ServerPreview[]): string {
  if (previews.length === 0) return 'it lists none';
  return previews
    .map((p) => `${p.id}: ${p.disabled ? 'switched off in the other app' : (p.problem ?? 'cannot run')}`)
    .join('; ');
}
