/**
 * `plugboard plugins install SOURCE`: the window's install, from a terminal, through the same
 * contract commands (`install.preview`, then `install.commit` with the preview's token), so what
 * is installed is exactly the copy that was previewed and tried. The package step's lines show on
 * stderr as they come; the trial's outcome is said, and a failed trial does not stop the install
 * (as "Install anyway" in the window). Granted: what the plugin requests (or `--grant`, or
 * nothing with `--grant-none`), the folders and files its arguments and environment name (as the
 * preview offers them), and what `--folder` adds.
 */
import os from 'node:os';
import path from 'node:path';
import type { InstallPreviewView } from '../../../shared/contract';
import type { FolderGrant } from '../../../shared/capabilities';
import type { Failure } from '../../../shared/failures';
import { revealed } from '../../../shared/visible-text';
import type { Backend } from '../../service';
import { EXIT_FAILED, EXIT_OK, jsonLine, UsageError, type Out } from '../io';

export interface InstallFlags {
  json?: boolean | undefined;
  replace?: boolean | undefined;
  grant?: string[] | undefined;
  'grant-none'?: boolean | undefined;
  folder?: string[] | undefined;
  id?: string | undefined;
}

export async function installCommand(
  backend: Backend,
  source: string,
  values: InstallFlags,
  out: Out,
): Promise<number> {
  const json = values.json === true;
  const addFolders = (values.folder ?? []).map(parseFolder);
  const file = path.resolve(source);
  return withProgress(backend, out, async (progress) => {
    const p = await backend.request('install.preview', { source: { kind: 'path', path: file }, progress });
    if (!p.ok) return refusal(out, json, p);
    const preview = p.preview;
    if (!json) sayTrial(preview, out);
    const none = values['grant-none'] === true;
    const grants = none ? [] : values.grant?.length ? values.grant : preview.requested.map((c) => c.name);
    // The paths its manifest names are its author's choice: granted only by --folder (red team Z07).
    const r = await backend.request('install.commit', {
      token: p.token,
      grants,
      replace: values.replace === true,
      folders: addFolders,
      progress,
      ...(values.id ? { id: values.id } : {}),
    });
    if (!r.ok) return refusal(out, json, r);
    // Flags inform (tool-scan.ts): descriptions that address the model, hidden text, shadowing names.
    const { flags } = preview;
    if (json) {
      jsonLine(out, { ...r, flags, trial: preview.trial });
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
    for (const g of preview.paths.filter((x) => !r.folders.some((f) => f.path === x.path)))
      out.stdout(
        `named by its manifest, not granted: ${revealed(g.path)} (${g.from}${g.note ? `; ${revealed(g.note)}` : ''}): --folder ${revealed(g.path)}${g.write ? '' : ':ro'} grants it\n`,
      );
    if (r.newlyRequested.length)
      out.stdout(
        `requested by the new version, not granted: ${r.newlyRequested.join(', ')} (plugboard plugins grant ${r.id} …)\n`,
      );
    return EXIT_OK;
  });
}

/** The trial launch's outcome, on stderr: a failed one is installed anyway, as the window's "Install anyway". */
function sayTrial(preview: InstallPreviewView, out: Out): void {
  const t = preview.trial;
  if (t.status === 'failed') {
    out.stderr(`warning: the trial launch failed (${t.code}): ${t.message}; installed anyway\n`);
    // Its last lines of stderr, unless the message already quotes them (a start failure names its cause).
    for (const line of t.stderrTail.slice(-5)) if (!t.message.includes(line)) out.stderr(`  ${revealed(line)}\n`);
  }
}

/**
 * Runs `body` with a progress id whose `install.progress` lines (a package step's) go to stderr
 * as they come, indented.
 */
export async function withProgress(
  backend: Backend,
  out: Out,
  body: (progress: string) => Promise<number>,
): Promise<number> {
  const progress = `cli-install-${process.pid}`;
  const sub = backend.onDidEvent((e) => {
    if (e.name === 'install.progress' && e.payload.progress === progress) out.stderr(`  ${e.payload.line}\n`);
  });
  try {
    return await body(progress);
  } finally {
    sub.dispose();
  }
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
