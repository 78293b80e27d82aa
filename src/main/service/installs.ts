/**
 * Installing from the UI: a package arrives as a path (the desktop app) or as an upload (the web
 * UI, which cannot hand over a path), is previewed under a token, and is then committed or
 * cancelled. An uploaded file is deleted once it is installed, refused or dropped, and only ever
 * inside the uploads folder.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { CapabilityView, CommandInput, CommandOutput } from '../../shared/contract';
import { failure } from '../../shared/failures';
import type { IDisposable } from '../../shared/lifecycle';
import { isInside } from '../fs';
import { installImported, readMcpConfig, type ImportedConfig, type PluginRegistry } from '../plugins';
import { scanTools } from '../../shared/tool-scan';
import { capabilityView } from './plugin-views';

export class Installs implements IDisposable {
  private readonly previews = new Map<string, { source: string; upload?: string; config?: ImportedConfig }>();
  private readonly uploads = new Map<string, string>();

  constructor(
    private readonly registry: PluginRegistry,
    /** Where uploaded files wait until installed (web UI). */
    private readonly uploadsDir: string | undefined,
  ) {}

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
    const config = readMcpConfig(file);
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
      preview: { file: path.basename(file), appName: config.appName, servers: config.previews },
    };
  }

  async importCommit({ token, only, secret }: CommandInput<'import.commit'>): Promise<CommandOutput<'import.commit'>> {
    const config = this.previews.get(token)?.config;
    if (!config) return failure('invalid_state', 'this preview has expired; drop the config file again');
    const r = await installImported(this.registry, config, { only, secret });
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

  async preview({ source }: CommandInput<'install.preview'>): Promise<CommandOutput<'install.preview'>> {
    const file = source.kind === 'path' ? source.path : this.uploads.get(source.uploadId);
    // The server removes uploads that wait too long (upload-quota.ts).
    if (!file || (source.kind === 'upload' && !existsSync(file)))
      return failure('not_found', 'that upload is gone (uploads not installed soon are removed); drop the file again');
    const p = await this.registry.installer.preview(file);
    if (!p.ok) {
      // A refused upload is of no further use: the person drops a fixed file next.
      if (source.kind === 'upload') this.dropUpload(source.uploadId);
      return p;
    }
    const token = randomUUID();
    this.previews.set(token, { source: file, ...(source.kind === 'upload' ? { upload: source.uploadId } : {}) });
    const { preview } = p;
    const requested: CapabilityView[] = preview.requested.map((c) => ({
      ...capabilityView(c, this.registry),
      requested: true,
      granted: false,
    }));
    // Flags inform the person; they never refuse an install.
    const flags = scanTools(preview.id, preview.tools, this.registry.everyTool());
    return { ok: true, token, preview: { ...preview, requested, replaces: preview.replaces ?? null, flags } };
  }

  async commit({ token, grants, replace }: CommandInput<'install.commit'>): Promise<CommandOutput<'install.commit'>> {
    const p = this.previews.get(token);
    if (!p || (p.upload && !existsSync(p.source)))
      return failure('invalid_state', 'this preview has expired; drop the plugin again');
    if (p.config)
      return failure('invalid_input', 'this preview is of an MCP config file: install its servers with import.commit');
    const r = await this.registry.installer.install(p.source, { replace, grant: grants });
    if (!r.ok) return r;
    this.forget(token);
    return { ok: true, detail: r.detail, id: r.id };
  }

  cancel(token: string): CommandOutput<'install.cancel'> {
    this.forget(token);
    return { ok: true, detail: 'cancelled' };
  }

  private forget(token: string): void {
    const p = this.previews.get(token);
    this.previews.delete(token);
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
  }
}
