/**
 * The service behind the contract: every command of src/shared/contract.ts, implemented once
 * over the registry and the chat service, and every event, gathered in one stream. The Electron
 * IPC binding and the WebSocket server both call `invoke` with an input they have already
 * checked against the contract's schema, and forward `onDidEvent` to their clients.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import pidusage from 'pidusage';
import { capabilityHere, capabilityInfo, requestedCapabilities } from '../../shared/capabilities';
import type {
  AppInfo,
  CapabilityView,
  CommandInput,
  CommandName,
  CommandOutput,
  Events,
  PaletteEntry,
  PluginDetail,
  PluginView,
  ProcessStats,
} from '../../shared/contract';
import { DisposableStore, Emitter, type IDisposable } from '../../shared/lifecycle';
import { isInside } from '../fs';
import { autoApprovedTools, exposedDeclarations, exposedUserCommands } from '../host/registry/assistant-view';
import type { PluginRegistry } from '../host/registry/registry';
import { ChatService } from './chat';
import { LogBook } from './logbook';
import { ConversationStore } from './store';

export type BackendEvent = { [E in keyof Events]: { name: E; payload: Events[E] } }[keyof Events];

type Handlers = { [C in CommandName]: (input: CommandInput<C>) => Promise<CommandOutput<C>> | CommandOutput<C> };

export interface BackendOptions {
  registry: PluginRegistry;
  version: string;
  transport: AppInfo['transport'];
  /** Where uploaded files (web UI drag-and-drop) are kept until installed. */
  uploadsDir?: string;
}

export class Backend implements IDisposable {
  private readonly subs = new DisposableStore();
  private readonly logs = new LogBook();
  private readonly previews = new Map<string, { source: string; upload?: string }>();
  private readonly uploads = new Map<string, string>();
  private readonly _onDidEvent = new Emitter<BackendEvent>();
  readonly onDidEvent = this._onDidEvent.event;
  readonly handlers: Handlers;

  private constructor(
    private readonly opts: BackendOptions,
    readonly chat: ChatService,
    private readonly store: ConversationStore,
  ) {
    const { registry } = opts;
    const fire = (e: BackendEvent): void => this._onDidEvent.fire(e);
    this.subs.add(registry.host.onDidChangeHealth((h) => fire({ name: 'health', payload: h })));
    this.subs.add(
      registry.host.onDidLog((l) => {
        this.logs.add(l);
        fire({ name: 'log', payload: l });
      }),
    );
    this.subs.add(registry.onDidChange((c) => fire({ name: 'plugins.changed', payload: c })));
    this.subs.add(chat.onDidEvent((e) => fire(e)));
    this.handlers = this.createHandlers();
  }

  static async create(opts: BackendOptions): Promise<Backend> {
    const store = await ConversationStore.open(opts.registry.paths.conversations);
    return new Backend(opts, new ChatService(opts.registry, store), store);
  }

  invoke<C extends CommandName>(name: C, input: CommandInput<C>): Promise<CommandOutput<C>> {
    return Promise.resolve((this.handlers[name] as (i: CommandInput<C>) => CommandOutput<C> | Promise<CommandOutput<C>>)(input));
  }

  /** Writes pending conversation changes to disk now. */
  flush(): void {
    this.store.flush();
  }

  /** Remembers a file the web UI uploaded; `install.preview` refers to it by id. */
  registerUpload(file: string): string {
    const id = randomUUID().replace(/-/g, '');
    this.uploads.set(id, file);
    return id;
  }

  private createHandlers(): Handlers {
    const { registry } = this.opts;
    const op = (r: { ok: true; detail: string } | { ok: false; message: string }) => r;
    const sup = (id: string) => registry.supervisor(id);
    return {
      'app.info': () => ({
        version: this.opts.version,
        platform: process.platform,
        transport: this.opts.transport,
        dataDir: registry.paths.root,
        secretStore: registry.secrets.description,
      }),
      'plugins.list': () => registry.list().map((r) => this.view(r.id)),
      'plugins.detail': async ({ id }) => this.detail(id),
      'plugins.start': async ({ id }) => {
        const s = sup(id);
        if (!s) return { ok: false, message: `no plugin "${id}" is loaded` };
        if (!registry.isEnabled(id)) return { ok: false, message: `${id} is disabled; enable it first` };
        const r = await s.start();
        return r.ok ? { ok: true, detail: s.spec.persistent ? 'started' : 'starts on its next call' } : { ok: false, message: `${r.code}: ${r.message}` };
      },
      'plugins.stop': async ({ id }) => {
        const s = sup(id);
        if (!s) return { ok: false, message: `no plugin "${id}" is loaded` };
        await s.stop();
        return { ok: true, detail: 'stopped' };
      },
      'plugins.restart': async ({ id }) => {
        const s = sup(id);
        if (!s) return { ok: false, message: `no plugin "${id}" is loaded` };
        const r = await s.restart();
        return r.ok ? { ok: true, detail: 'restarted' } : { ok: false, message: `${r.code}: ${r.message}` };
      },
      'plugins.setEnabled': async ({ id, enabled }) => op(await registry.setEnabled(id, enabled)),
      'plugins.setExposed': async ({ id, tool, exposed }) => op(await registry.setExposed(id, tool, exposed)),
      'plugins.grant': async ({ id, capabilities }) => op(await registry.grant(id, capabilities)),
      'plugins.revoke': async ({ id, capabilities }) => op(await registry.revoke(id, capabilities)),
      'plugins.configure': async ({ id, values }) => op(await registry.configure(id, values)),
      'plugins.uninstall': async ({ id }) => op(await registry.uninstall(id)),
      'plugins.logs': ({ id }) => this.logs.of(id),
      'plugins.stats': () => this.stats(),
      'install.preview': async ({ source }) => {
        const file = source.kind === 'path' ? source.path : this.uploads.get(source.uploadId);
        if (!file) return { ok: false, message: 'that upload is gone; drop the file again' };
        const p = await registry.preview(file);
        if (!p.ok) {
          // A refused upload is of no further use: the user drops a fixed file next.
          if (source.kind === 'upload') this.dropUpload(source.uploadId);
          return p;
        }
        const token = randomUUID();
        this.previews.set(token, { source: file, ...(source.kind === 'upload' ? { upload: source.uploadId } : {}) });
        const requested: CapabilityView[] = p.requested.map((c) => ({ ...this.capability(c), requested: true, granted: false }));
        return {
          ok: true,
          token,
          preview: { id: p.id, name: p.name, version: p.version, description: p.description, dialect: p.dialect, tools: p.tools, requested, requiredSettings: p.requiredSettings, replaces: p.replaces ?? null, warnings: p.warnings },
        };
      },
      'install.commit': async ({ token, grants, replace }) => {
        const p = this.previews.get(token);
        if (!p) return { ok: false, message: 'this preview has expired; drop the plugin again' };
        const r = await registry.install(p.source, { replace, grant: grants });
        if (!r.ok) return r;
        this.forget(token);
        return { ok: true, detail: r.detail, id: r.id };
      },
      'install.cancel': ({ token }) => {
        this.forget(token);
        return { ok: true, detail: 'cancelled' };
      },
      'palette.list': () => this.palette(),
      'chat.list': () => this.chat.list(),
      'chat.create': ({ title }) => this.chat.create(title),
      'chat.get': ({ id }) => this.chat.get(id),
      'chat.rename': ({ id, title }) => this.chat.rename(id, title),
      'chat.delete': ({ id }) => this.chat.delete(id),
      'chat.send': ({ conversationId, text }) => this.chat.send(conversationId, text),
      'chat.invoke': ({ conversationId, plugin, tool, args }) => this.chat.invoke(conversationId, plugin, tool, args),
      'chat.cancel': ({ turnId }) => this.chat.cancel(turnId),
      'chat.exitPassthrough': ({ conversationId }) => this.chat.exitPassthrough(conversationId),
    };
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
    const dir = this.opts.uploadsDir;
    if (!file || !dir) return;
    const own = path.dirname(file);
    if (own !== path.resolve(dir) && isInside(path.resolve(dir), own)) rmSync(own, { recursive: true, force: true });
  }

  private view(id: string): PluginView {
    const { registry } = this.opts;
    const rec = registry.record(id);
    const spec = rec?.spec;
    const state = registry.pluginState(id);
    const tools = registry.tools(id);
    const s = registry.supervisor(id);
    return {
      id,
      name: spec?.name ?? id,
      version: spec?.version ?? null,
      description: spec?.description ?? '',
      source: rec?.source ?? 'installed',
      dialect: spec?.dialect ?? null,
      persistent: spec?.persistent ?? false,
      error: rec?.error ?? null,
      enabled: state.enabled,
      exposed: state.exposed,
      toolCount: tools.length,
      exposedCount: tools.filter((t) => t.exposed).length,
      requested: spec ? requestedCapabilities(spec) : [],
      granted: state.grants,
      needsSettings: registry.missingSettings(id),
      health: s?.health ?? { pluginId: id, state: 'failed', reason: rec?.error ?? 'not loaded', pingRttMs: null, restarts: 0, pid: null, at: Date.now() },
    };
  }

  private async detail(id: string): Promise<PluginDetail | null> {
    const { registry } = this.opts;
    const rec = registry.record(id);
    if (!rec) return null;
    const spec = rec.spec;
    const auto = new Set(spec?.autoApprovedTools ?? []);
    const commands = new Set(spec?.userCommands.map((c) => c.name) ?? []);
    const requested = spec ? requestedCapabilities(spec) : [];
    const granted = registry.pluginState(id).grants;
    return {
      ...this.view(id),
      dir: rec.dir,
      manifestPath: spec?.manifestPath ?? null,
      command: spec?.command ?? [],
      tools: registry.tools(id).map((t) => ({ ...t, autoApproved: auto.has(t.name), userCommand: commands.has(t.name) })),
      capabilities: [...new Set([...requested, ...granted])].map((c) => ({ ...this.capability(c), requested: requested.includes(c), granted: granted.includes(c) })),
      settings: await registry.settingsView(id),
    };
  }

  /** A capability as enforced here: with the sandbox where plugins run in one. */
  private capability(name: string): Omit<CapabilityView, 'requested' | 'granted'> {
    const info = capabilityInfo(name);
    const here = capabilityHere(name, this.opts.registry.sandboxSupport.available);
    return { name, title: info.title, description: info.description, enforcement: here.enforcement, enforcementNote: here.note, enforced: here.enforced };
  }

  private palette(): PaletteEntry[] {
    const { registry } = this.opts;
    const auto = new Set(autoApprovedTools(registry));
    const name = (id: string) => registry.record(id)?.spec?.name ?? id;
    const tools: PaletteEntry[] = exposedDeclarations(registry).map((d) => ({
      kind: 'tool',
      plugin: d.plugin,
      pluginName: name(d.plugin),
      name: d.tool,
      description: d.description,
      parameters: d.parameters,
      autoApproved: auto.has(d.qualifiedName),
    }));
    const commands: PaletteEntry[] = exposedUserCommands(registry).map((c) => ({
      kind: 'command',
      plugin: c.plugin,
      pluginName: name(c.plugin),
      name: c.name,
      description: c.description,
      parameters: registry.tools(c.plugin).find((t) => t.name === c.name)?.parameters ?? { type: 'object', properties: {} },
      autoApproved: false,
    }));
    return [...commands, ...tools];
  }

  private async stats(): Promise<Record<string, ProcessStats>> {
    const pids = new Map<number, string>();
    const rtt = new Map<string, number | null>();
    for (const s of this.opts.registry.host.list()) {
      const h = s.health;
      if (h.pid) pids.set(h.pid, s.spec.id);
      rtt.set(s.spec.id, h.pingRttMs);
    }
    if (pids.size === 0) return {};
    let usage: Record<string, { cpu: number; memory: number }>;
    try {
      usage = (await pidusage([...pids.keys()])) as Record<string, { cpu: number; memory: number }>;
    } catch {
      return {}; // a process exited between the list and the read: the next poll catches up
    }
    const out: Record<string, ProcessStats> = {};
    for (const [pid, id] of pids) {
      const u = usage[String(pid)];
      if (u) out[id] = { pid, cpuPercent: Math.round(u.cpu * 10) / 10, memoryBytes: u.memory, pingRttMs: rtt.get(id) ?? null };
    }
    return out;
  }

  dispose(): void {
    this.chat.dispose();
    this.store.dispose();
    this.subs.dispose();
    this._onDidEvent.dispose();
    for (const token of [...this.previews.keys()]) this.forget(token);
  }
}

