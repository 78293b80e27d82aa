/**
 * The service behind the contract: every command of src/shared/contract.ts, implemented once over
 * the registry (plugins, installs, settings) and the chat service (conversations), and every
 * event, gathered in one stream. The Electron IPC binding and the WebSocket server both call
 * `invoke` with an input they have already checked against the contract's schema, and forward
 * `onDidEvent` to their clients. Nothing here talks to a plugin process: that is the host's.
 */
import { fillPrompt, promptsOf, resourcesOf } from './features';
import type { AppInfo, CommandInput, CommandName, CommandOutput, Events } from '../../shared/contract';
import { Disposable, Emitter } from '../../shared/lifecycle';
import { agentModels, ChatService, ConversationStore, discoverLocal, ModelStore, takeAttachments } from '../assistant';
import type { PluginRegistry } from '../plugins';
import { failure } from '../../shared/failures';
import { AttachmentUploads } from './attachment-uploads';
import { testModel } from './model-checks';
import { sandboxStatus } from './sandbox-status';
import { Installs } from './installs';
import { LogBook } from './logbook';
import { PluginViews } from './plugin-views';
import { processStats } from './stats';

export type BackendEvent = { [E in keyof Events]: { name: E; payload: Events[E] } }[keyof Events];

type Handlers = { [C in CommandName]: (input: CommandInput<C>) => Promise<CommandOutput<C>> | CommandOutput<C> };

export interface BackendOptions {
  registry: PluginRegistry;
  version: string;
  transport: AppInfo['transport'];
  /** Where uploaded files (web UI drag-and-drop) are kept until installed. */
  uploadsDir?: string;
  /** Opens a folder in the system's file manager (the desktop app); '' or why it could not. */
  openFolder?(dir: string): Promise<string>;
}

export class Backend extends Disposable {
  private readonly logs = new LogBook();
  private readonly views: PluginViews;
  private readonly installs: Installs;
  private readonly attachments: AttachmentUploads;
  private readonly _onDidEvent = this._register(new Emitter<BackendEvent>());
  readonly onDidEvent = this._onDidEvent.event;
  private readonly handlers: Handlers;

  private constructor(
    private readonly opts: BackendOptions,
    readonly chat: ChatService,
    private readonly store: ConversationStore,
    readonly models: ModelStore,
  ) {
    super();
    this._register(models);
    this._register(models.onDidChange((e) => this._onDidEvent.fire({ name: 'models.changed', payload: e })));
    const { registry } = opts;
    this.views = new PluginViews(registry);
    this.installs = this._register(new Installs(registry, opts.uploadsDir));
    this.attachments = new AttachmentUploads(opts.uploadsDir);
    const fire = (e: BackendEvent): void => this._onDidEvent.fire(e);
    this._register(registry.onDidChangeHealth((h) => fire({ name: 'health', payload: h })));
    this._register(
      registry.onDidLog((l) => {
        this.logs.add(l);
        fire({ name: 'log', payload: l });
      }),
    );
    this._register(registry.onDidChange((c) => fire({ name: 'plugins.changed', payload: c })));
    this._register(
      registry.onDidChangeTools(({ pluginId, added, removed, changed, initial }) => {
        // The palette and the panel refetch; a change after the first announcement goes into the
        // plugin's log too, with what changed and when.
        if (!initial) {
          const what = [
            added.length ? `added ${added.join(', ')}` : '',
            removed.length ? `removed ${removed.join(', ')}` : '',
            changed.length ? `changed the definition of ${changed.join(', ')}` : '',
          ]
            .filter(Boolean)
            .join('; ');
          const line = {
            pluginId,
            source: 'host' as const,
            level: 'info' as const,
            message: `tools changed: ${what}`,
            at: Date.now(),
          };
          this.logs.add(line);
          fire({ name: 'log', payload: line });
        }
        const tools = { added, removed, ...(changed.length ? { changed } : {}) };
        fire({ name: 'plugins.changed', payload: { id: pluginId, reason: 'tools', tools } });
      }),
    );
    this._register(
      registry.onDidChangeFeatures(({ pluginId, kind }) => {
        // Prompts and resources are read when shown: the screens that show them read them again.
        const line = {
          pluginId,
          source: 'host' as const,
          level: 'info' as const,
          message: `${kind} changed (the server sent list_changed)`,
          at: Date.now(),
        };
        this.logs.add(line);
        fire({ name: 'log', payload: line });
        fire({ name: 'plugins.changed', payload: { id: pluginId, reason: kind } });
      }),
    );
    this._register(chat.onDidEvent(fire));
    this.handlers = this.createHandlers();
  }

  static async create(opts: BackendOptions): Promise<Backend> {
    const { registry } = opts;
    const store = await ConversationStore.open(registry.paths.conversations);
    const models = new ModelStore(registry.paths.root, registry.secrets);
    const chat = new ChatService({ registry, store, models, audit: registry.audit });
    return new Backend(opts, chat, store, models);
  }

  invoke<C extends CommandName>(name: C, input: CommandInput<C>): Promise<CommandOutput<C>> {
    return Promise.resolve(
      (this.handlers[name] as (i: CommandInput<C>) => CommandOutput<C> | Promise<CommandOutput<C>>)(input),
    );
  }

  /** Writes pending conversation changes to disk now. */
  flush(): void {
    this.store.flush();
  }

  /** Remembers a file the web UI uploaded: a package `install.preview` refers to by id, or a message's attachment. */
  registerUpload(file: string, purpose: 'install' | 'attachment' = 'install'): string {
    return purpose === 'attachment' ? this.attachments.register(file) : this.installs.registerUpload(file);
  }

  private createHandlers(): Handlers {
    const { registry } = this.opts;
    const { chat, views, installs } = this;
    return {
      'app.info': () => ({
        version: this.opts.version,
        platform: process.platform,
        transport: this.opts.transport,
        dataDir: registry.paths.root,
        secretStore: registry.secrets.description,
      }),
      'app.sandbox': () => sandboxStatus(process.platform, registry.sandboxSupport),
      'app.openDataFolder': async () => {
        if (!this.opts.openFolder)
          return failure('invalid_state', 'only the desktop app can open a folder; copy the path instead');
        const why = await this.opts.openFolder(registry.paths.root);
        return why
          ? failure('io_error', `could not open ${registry.paths.root}: ${why}`)
          : { ok: true, detail: 'opened' };
      },
      'approvals.default': () => ({ policy: registry.approvalDefault() }),
      'approvals.setDefault': ({ policy }) => registry.setApprovalDefault(policy),
      'plugins.list': () => views.list(),
      'plugins.detail': ({ id }) => views.detail(id),
      'plugins.start': ({ id }) => registry.start(id),
      'plugins.stop': ({ id }) => registry.stop(id),
      'plugins.restart': ({ id }) => registry.restart(id),
      'plugins.setEnabled': ({ id, enabled }) => registry.setEnabled(id, enabled),
      'plugins.setExposed': ({ id, tool, exposed }) => registry.setExposed(id, tool, exposed),
      'plugins.grant': ({ id, capabilities }) => registry.grant(id, capabilities),
      'plugins.revoke': ({ id, capabilities }) => registry.revoke(id, capabilities),
      'plugins.configure': ({ id, values }) => registry.configure(id, values),
      'plugins.uninstall': ({ id }) => registry.uninstall(id),
      'plugins.logs': ({ id }) => this.logs.of(id),
      'plugins.stats': () => processStats(registry),
      'plugins.resources': ({ id }) => resourcesOf(registry, id),
      'plugins.prompts': ({ id }) => promptsOf(registry, id),
      'prompts.get': ({ id, name, args }) => fillPrompt(registry, id, name, args),
      'install.preview': (input) => installs.preview(input),
      'install.commit': (input) => installs.commit(input),
      'install.cancel': ({ token }) => installs.cancel(token),
      'import.preview': (input) => installs.importPreview(input),
      'import.commit': (input) => installs.importCommit(input),
      'palette.list': () => views.palette(),
      'chat.list': () => chat.list(),
      'chat.saveState': () => chat.saveState(),
      'chat.create': ({ title }) => chat.create(title),
      'chat.get': ({ id }) => chat.get(id),
      'chat.rename': ({ id, title }) => chat.rename(id, title),
      'chat.delete': ({ id }) => chat.delete(id),
      'chat.search': ({ query, limit }) => this.store.search(query, limit),
      'chat.send': ({ conversationId, text, attachments }) => {
        const taken = takeAttachments(attachments ?? [], this.attachments.take);
        return taken.ok ? chat.send(conversationId, text, {}, taken.files) : taken;
      },
      'chat.attachment': ({ id }) => {
        const f = this.store.attachment(id);
        if (!f) return failure('not_found', `no attached file ${id} (its conversation may have been deleted)`);
        return { ok: true, name: f.name, kind: f.kind, mime: f.mime, data: Buffer.from(f.bytes).toString('base64') };
      },
      'chat.setModel': ({ conversationId, model }) => chat.setModel(conversationId, model),
      'chat.approve': ({ callId, decision, args }) => chat.approve(callId, decision, args),
      'chat.retry': ({ conversationId }) => chat.retry(conversationId),
      'chat.edit': ({ conversationId, messageId, text }) => chat.edit(conversationId, messageId, text),
      'chat.regenerate': ({ conversationId }) => chat.regenerate(conversationId),
      'chat.answer': ({ callId, answer, refuse }) => chat.assistant.answer(callId, answer, refuse),
      'models.usage': () => this.store.usageByModel(),
      'assistant.settings': () => this.models.settings(),
      'assistant.configure': (change) => this.models.configure(change),
      'tools.suggest': ({ text }) => views.entries(chat.assistant.suggest(text)),
      'models.list': async () => {
        const view = await this.models.view();
        return { ...view, models: [...view.models, ...agentModels(registry)] };
      },
      'models.save': (input) => this.models.save(input),
      'models.remove': ({ name }) => this.models.remove(name),
      'models.setDefault': ({ name }) => this.models.setDefault(name),
      'models.test': (input) => testModel(this.models, input),
      'models.discover': () => discoverLocal(),
      'plugins.setToolPolicy': ({ id, tool, policy }) => registry.setToolPolicy(id, tool, policy),
      'plugins.acceptDefinition': ({ id, tool }) => registry.acceptDefinition(id, tool),
      'chat.invoke': ({ conversationId, plugin, tool, args }) => chat.invoke(conversationId, plugin, tool, args),
      'chat.cancel': ({ turnId }) => chat.cancel(turnId),
      'chat.exitPassthrough': ({ conversationId }) => chat.exitPassthrough(conversationId),
    };
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.chat.dispose();
    this.store.dispose();
    super.dispose();
  }
}
