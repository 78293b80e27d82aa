/**
 * Installing from the UI: a package arrives as a path (the desktop app) or as an upload (the web
 * UI, which cannot hand over a path), is previewed under a token (the registry keeps the staged
 * copy the token names, its package installed), and is then committed (that very copy) or
 * cancelled. The package step's lines go out as `install.progress` events under the client's
 * progress id. An uploaded file is deleted once it is staged or refused, and only ever inside
 * the uploads folder.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { CapabilityView, CommandInput, CommandOutput, Events } from '../../shared/contract';
import { failure } from '../../shared/failures';
import { Emitter, type IDisposable } from '../../shared/lifecycle';
import type { SettingSpec } from '../../shared/plugin';
import { isInside } from '../fs';
import {
  installImported,
  readMcpConfig,
  type Catalog,
  type CatalogImport,
  type ImportedConfig,
  type PluginRegistry,
  type Updates,
} from '../plugins';
import { scanTools } from '../../shared/tool-scan';
import { checkGiven, coerceGiven, givenValues } from './install-settings';
import { capabilityView } from './plugin-views';

export class Installs implements IDisposable {
  private readonly previews = new Map<
    string,
    { source: string; upload?: string; config?: ImportedConfig; catalog?: CatalogImport; settings?: SettingSpec[] }
  >();
  private readonly uploads = new Map<string, string>();
  private readonly _onDidProgress = new Emitter<Events['install.progress']>();
  /** Lines of a package step, for the client that named the progress id. */
  readonly onDidProgress = this._onDidProgress.event;

  constructor(
    private readonly registry: PluginRegistry,
    /** Where uploaded files wait until installed (web UI). */
    private readonly uploadsDir: string | undefined,
    /** Installs catalog entries (`catalog.preview` previews them here) and says what an install over a plugin changes. */
    private readonly more: { catalog: Catalog; updates: Updates },
  ) {}

  /** A catalog entry, previewed as an import under a token (`import.commit` installs it, pinned). */
  catalogPreview(imp: CatalogImport): string {
    const token = randomUUID();
    this.previews.set(token, { source: imp.config.file, config: imp.config, catalog: imp });
    return token;
  }

  /** Remembers a file the web UI uploaded; `install.preview` refers to it by id. */
  registerUpload(file: string): string {
    const id = randomUUID().replace(/-/g, '');
    this.uploads.set(id, file);
    return id;
  }

  /** Another app's MCP config: its servers previewed under a token, which `install.cancel` drops too. */
  importPreview({ source }: CommandInput<'import.preview'>): CommandOutput<'import.preview'> {
    const file = source.kind === 'path' ? source.path : this.uploads.get(source.uploadId);
    if (!file || (source.kind === 'upload' && !existsSync(file)))
      return failure('not_found', 'that upload is gone (uploads not installed soon are removed); drop the file again');
    const config = readMcpConfig(file, undefined, (id) => this.registry.record(id) !== undefined);
    if (!config.ok) {
      if (source.kind === 'upload') this.dropUpload(source.uploadId);
      return config;
    }
    const token = randomUUID();
    this.previews.set(token, {
      source: file,
      config,
      ...(source.kind === 'upload' ? { upload: source.uploadId } : {}),
    });
    // The previews carry names and flags only; the values stay in `config`, on this side.
    return {
      ok: true,
      token,
      preview: { file: path.basename(file), appName: config.appName, app: config.app, servers: config.previews },
    };
  }

  async importCommit({
    token,
    only,
    secret,
    grants,
    ids,
    copy,
    progress,
  }: CommandInput<'import.commit'>): Promise<CommandOutput<'import.commit'>> {
    const p = this.previews.get(token);
    const config = p?.config;
    if (!config) return failure('invalid_state', 'this preview has expired; drop the config file again');
    const choice = {
      ...(only ? { only } : {}),
      ...(secret ? { secret } : {}),
      ...(grants ? { grants } : {}),
      ...(ids ? { ids } : {}),
      ...(copy ? { copy } : {}),
      ...this.progressOf(progress),
    };
    const r = p.catalog
      ? await this.more.catalog.install(p.catalog, choice)
      : await installImported(this.registry, config, choice);
    if (!r.ok) return r;
    // The file may name more servers than were chosen: it stays previewed until every one is in.
    if (r.results.every((x) => x.outcome.ok)) this.forget(token);
    return {
      ok: true,
      results: r.results.map((x) => ({
        key: x.key,
        name: x.name,
        ...(x.outcome.ok ? { ok: true as const, id: x.outcome.id, detail: x.outcome.detail } : x.outcome),
      })),
    };
  }

  async preview({ source, progress }: CommandInput<'install.preview'>): Promise<CommandOutput<'install.preview'>> {
    const file = source.kind === 'path' ? source.path : this.uploads.get(source.uploadId);
    // The server removes uploads that wait too long (upload-quota.ts).
    if (!file || (source.kind === 'upload' && !existsSync(file)))
      return failure('not_found', 'that upload is gone (uploads not installed soon are removed); drop the file again');
    const p = await this.registry.installer.preview(file, this.progressOf(progress));
    // Staged or refused, an upload is of no further use: what is installed is the staged copy,
    // and after a refusal the person drops a fixed file next.
    if (source.kind === 'upload') this.dropUpload(source.uploadId);
    if (!p.ok) return p;
    const { token } = p;
    // The tools the trial found where the server announced them (an MCP server's come from it, not its manifest).
    const { announced, ...described } = p.preview;
    const preview = announced?.length ? { ...described, tools: announced } : described;
    this.previews.set(token, { source: file, settings: preview.settings });
    const view = (c: string, requested: boolean): CapabilityView => ({
      ...capabilityView(c, this.registry),
      requested,
      granted: false,
    });
    const changes = await this.more.updates.changesFor(p.preview);
    // Flags inform the person; they never refuse an install.
    const flags = scanTools(preview.id, preview.tools, this.registry.everyTool());
    return {
      ok: true,
      token,
      preview: {
        ...preview,
        requested: preview.requested.map((c) => view(c, true)),
        unrequested: preview.unrequested.map((c) => view(c, false)),
        replaces: preview.replaces ?? null,
        changes,
        flags,
      },
    };
  }

  async commit({
    token,
    grants,
    replace,
    folders,
    progress,
    settings,
    id,
  }: CommandInput<'install.commit'>): Promise<CommandOutput<'install.commit'>> {
    const p = this.previews.get(token);
    if (!p) return failure('invalid_state', 'this preview has expired; drop the plugin again');
    if (p.config)
      return failure('invalid_input', 'this preview is of an MCP config file: install its servers with import.commit');
    const given = givenValues(settings);
    const bad = checkGiven(p.settings ?? [], given);
    if (bad) return bad;
    const r = await this.registry.installer.commitPreview(token, {
      replace,
      grant: grants,
      ...(folders ? { folders } : {}),
      ...(id ? { id } : {}),
      ...this.progressOf(progress),
    });
    // The staged copy is spent either way: a refused commit is previewed again.
    this.forget(token);
    if (!r.ok) return r;
    if (Object.keys(given).length > 0) {
      const c = await this.registry.decisions.configure(r.id, given);
      if (!c.ok) return failure(c.code, `${r.id} is installed, but its settings were not saved: ${c.message}`);
    }
    return r;
  }

  /** The preview's plugin tried again with the form's values and the preview's choices. */
  async tryAgain({
    token,
    grants,
    folders,
    settings,
  }: CommandInput<'install.try'>): Promise<CommandOutput<'install.try'>> {
    const p = this.previews.get(token);
    if (!p || p.config) return failure('invalid_state', 'this preview has expired; drop the plugin again');
    const given = coerceGiven(p.settings ?? [], givenValues(settings));
    if (!given.ok) return given;
    const r = await this.registry.installer.tryAgain(token, {
      values: given.values,
      grants,
      ...(folders ? { folders } : {}),
    });
    if (!r.ok) return r;
    return { ok: true, command: r.command, trial: r.trial, tools: r.announced?.length ? r.announced : null };
  }

  /** The progress listener of a client's progress id, as the registry takes it. */
  private progressOf(progress: string | undefined): { onProgress?: (line: string) => void } {
    if (!progress) return {};
    return { onProgress: (line) => this._onDidProgress.fire({ progress, line }) };
  }

  cancel(token: string): CommandOutput<'install.cancel'> {
    this.forget(token);
    return { ok: true, detail: 'cancelled' };
  }

  private forget(token: string): void {
    const p = this.previews.get(token);
    this.previews.delete(token);
    if (p && !p.config) this.registry.installer.cancelPreview(token);
    if (p?.upload) this.dropUpload(p.upload);
  }

  /** Deletes an uploaded file's own folder, and only ever one inside the uploads folder. */
  private dropUpload(uploadId: string): void {
    const file = this.uploads.get(uploadId);
    this.uploads.delete(uploadId);
    const dir = this.uploadsDir;
    if (!file || !dir) return;
    const own = path.dirname(file);
    if (own !== path.resolve(dir) && isInside(path.resolve(dir), own)) rmSync(own, { recursive: true, force: true });
  }

  dispose(): void {
    for (const token of [...this.previews.keys()]) this.forget(token);
    this._onDidProgress.dispose();
  }
}
