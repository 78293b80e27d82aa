/**
 * The service behind the contract: every command of src/shared/contract.ts, implemented once over
 * the registry (plugins, installs, settings) and the chat service (conversations), and every
 * event, gathered in one stream. The Electron IPC binding and the WebSocket server both call
 * `invoke` with an input they have already checked against the contract's schema, and forward
 * `onDidEvent` to their clients. Nothing here talks to a plugin process: that is the host's.
 */
/* eslint-disable max-lines -- one whole concern: one handler per contract command, each a line or two over the parts it uses */
import { fillPrompt, promptsOf, resourcesOf } from './features';
import { AppFrames } from './app-frames';
import { AppDoors } from './apps';
import { IconResolver } from './icons';
import {
  checkInvocation,
  type Answer,
  type AppInfo,
  type CommandInput,
  type CommandName,
  type CommandOutput,
  type Events,
} from '../../shared/contract';
import { Disposable, Emitter } from '../../shared/lifecycle';
import {
  agentModelRows,
  agentModels,
  ApprovalInbox,
  ChatService,
  ConversationStore,
  discoverLocal,
  ModelStore,
  takeAttachments,
} from '../assistant';
import type { PluginRegistry } from '../plugins';
import { failure, failureOf, type Failure } from '../../shared/failures';
import { watchAgentModels } from './agent-models';
import { AttachmentUploads } from './attachment-uploads';
import { CatalogUpdates } from './catalog-updates';
import { testModel } from './model-checks';
import { sandboxStatus } from './sandbox-status';
import { listFolder } from './folders';
import { Installs } from './installs';
import { LogBook } from './logbook';
import { mcpClientSnippets, type McpLaunch } from '../../shared/mcp-clients';
import { PluginViews } from './plugin-views';
import { SignInService } from './sign-ins';
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
  /** Opens a page in the person's browser (the desktop app: a sign-in's authorization page). */
  openExternal?(url: string): void;
  /** Opens a web link in the system's browser (the desktop app); '' or why it could not. */
  openLink?(url: string): Promise<string>;
  /** How this installation runs `plugboard mcp` on its data folder, for the other apps' config snippets. */
  mcpLaunch?: McpLaunch;
  /**
   * Show the calls other apps (MCP clients of Plugboard on this data folder) wait to have approved:
   * the app and `plugboard serve` do, a back end with no screen (`plugboard chat`) does not.
   */
  approvalInbox?: boolean;
  /**
   * When the conversations (their store and the chat) open: at once (the default: the app, `serve`
   * and `plugboard chat` say at start when another Plugboard holds them), or on the first command
   * that needs them (`plugboard plugins` and `models`, which work while another Plugboard runs).
   */
  conversations?: 'now' | 'when-needed';
}

/** The conversations: their store and the chat service over it. */
export interface Conversations {
  chat: ChatService;
  store: ConversationStore;
}

export class Backend extends Disposable {
  private readonly logs = new LogBook();
  private readonly views: PluginViews;
  private readonly installs: Installs;
  private readonly catalogUpdates: CatalogUpdates;
  private readonly attachments: AttachmentUploads;
  private readonly signIns: SignInService;
  /** MCP App pages staged for their frames; whoever serves the frame origin says where (serveAt). */
  readonly frames = new AppFrames();
  private readonly icons: IconResolver;
  private readonly apps: AppDoors;
  private readonly _onDidEvent = this._register(new Emitter<BackendEvent>());
  readonly onDidEvent = this._onDidEvent.event;
  private readonly handlers: Handlers;
  private opening: Promise<Conversations> | null = null;
  private opened: Conversations | null = null;

  private constructor(
    private readonly opts: BackendOptions,
    readonly models: ModelStore,
    private readonly inbox: ApprovalInbox | undefined,
  ) {
    super();
    this._register(models);
    if (inbox) {
      this._register(inbox);
      this._register(
        inbox.onDidChange((pending) => this._onDidEvent.fire({ name: 'approvals.external', payload: { pending } })),
      );
    }
    this._register(models.onDidChange((e) => this._onDidEvent.fire({ name: 'models.changed', payload: e })));
    const { registry } = opts;
    this.icons = this._register(
      new IconResolver({
        netGranted: (id) => registry.granted(id, 'net'),
        warn: (pluginId, message) => {
          const line = { pluginId, source: 'host' as const, level: 'warn' as const, message, at: Date.now() };
          this.logs.add(line);
          this._onDidEvent.fire({ name: 'log', payload: line });
        },
      }),
    );
    this._register(
      this.icons.onDidResolve((id) =>
        this._onDidEvent.fire({ name: 'plugins.changed', payload: { id, reason: 'icons' } }),
      ),
    );
    this._register(registry.onDidChange((c) => this.icons.retryFailed(c.id)));
    this.views = new PluginViews(registry, this.icons);
    this.apps = new AppDoors(registry, async () => (await this.conversations()).chat, this.frames, registry.audit);
    this.catalogUpdates = this._register(new CatalogUpdates(registry));
    this.installs = this._register(new Installs(registry, opts.uploadsDir, this.catalogUpdates));
    this.attachments = new AttachmentUploads(opts.uploadsDir);
    const fire = (e: BackendEvent): void => this._onDidEvent.fire(e);
    this._register(this.installs.onDidProgress((p) => fire({ name: 'install.progress', payload: p })));
    this.signIns = new SignInService(registry, {
      ...(opts.openExternal ? { openExternal: opts.openExternal } : {}),
      changed: (id, reason) => fire({ name: 'plugins.changed', payload: { id, reason } }),
    });
    this._register(registry.onDidChangeHealth((h) => fire({ name: 'health', payload: h })));
    this._register(
      registry.onDidLog((l) => {
        this.logs.add(l);
        fire({ name: 'log', payload: l });
      }),
    );
    this._register(registry.onDidChange((c) => fire({ name: 'plugins.changed', payload: c })));
    this._register(watchAgentModels(registry, (reason) => fire({ name: 'models.changed', payload: { reason } })));
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
    this.handlers = this.createHandlers();
  }

  static async create(opts: BackendOptions): Promise<Backend> {
    const { registry } = opts;
    const inbox = opts.approvalInbox ? await ApprovalInbox.open(registry.paths.root) : undefined;
    const backend = new Backend(opts, new ModelStore(registry.paths.root, registry.secrets), inbox);
    if (opts.conversations !== 'when-needed') {
      try {
        await backend.conversations();
      } catch (e) {
        backend.dispose();
        throw e;
      }
    }
    return backend;
  }

  /**
   * The conversations, opened once, when first needed. Opening throws a FailureError when another
   * Plugboard holds them (assistant/store/owner.ts); a command then answers with its failure.
   */
  conversations(): Promise<Conversations> {
    return (this.opening ??= (async () => {
      const { registry } = this.opts;
      const store = await ConversationStore.open(registry.paths.conversations);
      if (this.isDisposed) {
        store.dispose();
        throw new Error('the back end was closed while its conversations opened');
      }
      const chat = new ChatService({
        registry,
        store,
        models: this.models,
        audit: registry.audit,
        ...(this.opts.openExternal ? { openExternal: this.opts.openExternal } : {}),
      });
      this._register(chat.onDidEvent((e) => this._onDidEvent.fire(e)));
      this.opened = { chat, store };
      return this.opened;
    })());
  }

  invoke<C extends CommandName>(name: C, input: CommandInput<C>): Promise<CommandOutput<C>> {
    return Promise.resolve(
      (this.handlers[name] as (i: CommandInput<C>) => CommandOutput<C> | Promise<CommandOutput<C>>)(input),
    );
  }

  /**
   * A command from outside the process (IPC, WebSocket, the CLI): its name and input are checked
   * against the contract first, and whatever happens, the answer is a value: the output, the
   * refusal (`invalid_input`), or an unexpected error (`internal_error`), the same for every caller.
   */
  async answer(name: unknown, input: unknown): Promise<Answer> {
    const checked = checkInvocation(name, input);
    if (!checked.ok) return checked;
    try {
      return { ok: true, value: await this.invoke(checked.name, checked.input) };
    } catch (e) {
      return failureOf(e);
    }
  }

  /**
   * `answer` for callers in this process (the `plugboard` CLI), typed: the command's output, or
   * the failure that refused it. The same check and the same handler as a window's command.
   */
  async request<C extends CommandName>(name: C, input: CommandInput<C>): Promise<CommandOutput<C> | Failure> {
    const a = await this.answer(name, input);
    return a.ok ? (a.value as CommandOutput<C>) : a;
  }

  /** Writes pending conversation changes to disk now. */
  flush(): void {
    this.opened?.store.flush();
  }

  /** Remembers a file the web UI uploaded: a package `install.preview` refers to by id, or a message's attachment. */
  registerUpload(file: string, purpose: 'install' | 'attachment' = 'install'): string {
    return purpose === 'attachment' ? this.attachments.register(file) : this.installs.registerUpload(file);
  }

  private createHandlers(): Handlers {
    const { registry } = this.opts;
    const { views, installs, catalogUpdates: cu } = this;
    const chat = async (): Promise<ChatService> => (await this.conversations()).chat;
    const store = async (): Promise<ConversationStore> => (await this.conversations()).store;
    return {
      'app.info': () => ({
        version: this.opts.version,
        platform: process.platform,
        transport: this.opts.transport,
        dataDir: registry.paths.root,
        secretStore: registry.secrets.description,
      }),
      'app.sandbox': () => sandboxStatus(process.platform, registry.sandboxSupport),
      'app.listFolder': (input) => listFolder(input),
      'app.openDataFolder': async () => {
        if (!this.opts.openFolder)
          return failure('invalid_state', 'only the desktop app can open a folder; copy the path instead');
        const why = await this.opts.openFolder(registry.paths.root);
        return why
          ? failure('io_error', `could not open ${registry.paths.root}: ${why}`)
          : { ok: true, detail: 'opened' };
      },
      'approvals.default': () => ({ policy: registry.decisions.approvalDefault() }),
      'approvals.setDefault': ({ policy }) => registry.decisions.setApprovalDefault(policy),
      'approvals.external': () => this.inbox?.pending() ?? [],
      'approvals.answerExternal': ({ id, decision }) =>
        this.inbox?.answer(id, decision) ?? failure('invalid_state', 'this Plugboard shows no requests of other apps'),
      'app.mcpClients': () =>
        this.opts.mcpLaunch
          ? { ok: true, snippets: mcpClientSnippets(this.opts.mcpLaunch, process.platform) }
          : failure(
              'invalid_state',
              'this Plugboard has no `plugboard` command to give other apps (a packaged app ships none): install Plugboard from its repository and run `plugboard mcp --print-config claude` there',
            ),
      'plugins.list': () => views.list(),
      'plugins.detail': async ({ id }) => {
        const d = await views.detail(id);
        const signIn = d ? await this.signIns.view(id) : undefined;
        return d && signIn ? { ...d, signIn } : d;
      },
      'plugins.start': ({ id }) => registry.start(id),
      'plugins.stop': ({ id }) => registry.stop(id),
      'plugins.restart': ({ id }) => registry.restart(id),
      'plugins.setEnabled': ({ id, enabled }) => registry.decisions.setEnabled(id, enabled),
      'plugins.setExposed': ({ id, tool, exposed }) => registry.decisions.setExposed(id, tool, exposed),
      'plugins.grant': ({ id, capabilities, folders }) => registry.decisions.grant(id, capabilities, folders),
      'plugins.revoke': ({ id, capabilities, folders }) => registry.decisions.revoke(id, capabilities, folders),
      'plugins.configure': ({ id, values }) => registry.decisions.configure(id, values),
      'plugins.setLimits': ({ id, limits }) => registry.decisions.setLimits(id, limits),
      'plugins.uninstall': ({ id }) => registry.installer.uninstall(id),
      'plugins.signIn': ({ id }) => this.signIns.start(id),
      'plugins.signOut': ({ id }) => this.signIns.signOut(id),
      'plugins.logs': ({ id }) => this.logs.of(id),
      'plugins.stats': () => processStats(registry),
      'plugins.resources': ({ id }) => resourcesOf(registry, id),
      'plugins.prompts': ({ id }) =>
        promptsOf(
          registry,
          id,
          (icons) => this.icons.view(id, icons) ?? this.icons.view(id, registry.host.serverIcons(id)),
        ),
      'prompts.get': ({ id, name, args }) => fillPrompt(registry, id, name, args),
      'install.preview': (input) => installs.preview(input),
      'install.commit': (input) => installs.commit(input),
      'install.try': (input) => installs.tryAgain(input),
      'install.cancel': ({ token }) => installs.cancel(token),
      'import.preview': (input) => installs.importPreview(input),
      'import.commit': (input) => installs.importCommit(input),
      'catalog.search': (input) => cu.search(input),
      'catalog.preview': (input) => cu.preview(input, installs),
      'catalog.settings': () => cu.settings(),
      'catalog.setUrl': (input) => cu.setUrl(input),
      'updates.check': (input) => cu.check(input),
      'updates.preview': (input) => cu.updatePreview(input),
      'updates.commit': (input) => cu.commit(input),
      'updates.cancel': (input) => cu.cancel(input),
      'plugins.rollback': (input) => cu.rollback(input),
      'palette.list': () => views.palette(),
      'chat.list': async () => (await chat()).list(),
      'chat.saveState': async () => (await chat()).saveState(),
      'chat.create': async ({ title }) => (await chat()).create(title),
      'chat.get': async ({ id }) => (await chat()).get(id),
      'chat.rename': async ({ id, title }) => (await chat()).rename(id, title),
      'chat.delete': async ({ id }) => (await chat()).delete(id),
      'chat.search': async ({ query, limit }) => (await store()).search(query, limit),
      'chat.send': async ({ conversationId, text, attachments, approve, unattended }) => {
        const taken = takeAttachments(attachments ?? [], this.attachments.take);
        if (!taken.ok) return taken;
        const opts = { ...(approve ? { flag: approve } : {}), ...(unattended ? { unattended } : {}) };
        return (await chat()).send(conversationId, text, opts, taken.files);
      },
      'chat.attachment': async ({ id }) => {
        const f = (await store()).attachment(id);
        if (!f) return failure('not_found', `no attached file ${id} (its conversation may have been deleted)`);
        return { ok: true, name: f.name, kind: f.kind, mime: f.mime, data: Buffer.from(f.bytes).toString('base64') };
      },
      'chat.setModel': async ({ conversationId, model }) => (await chat()).setModel(conversationId, model),
      'chat.approve': async ({ callId, decision, args }) => (await chat()).approve(callId, decision, args),
      'chat.retry': async ({ conversationId }) => (await chat()).retry(conversationId),
      'chat.edit': async ({ conversationId, messageId, text, keep, attachments }) => {
        const taken = takeAttachments(attachments ?? [], this.attachments.take);
        if (!taken.ok) return taken;
        return (await chat()).edit(conversationId, messageId, text, { ...(keep ? { keep } : {}), added: taken.files });
      },
      'chat.regenerate': async ({ conversationId }) => (await chat()).regenerate(conversationId),
      'chat.answer': async ({ callId, answer, refuse }) => (await chat()).assistant.answer(callId, answer, refuse),
      'models.usage': async () => (await store()).usageByModel(),
      'assistant.settings': () => this.models.settings(),
      'assistant.configure': (change) => this.models.configure(change),
      'tools.suggest': async ({ text }) => views.entries((await chat()).assistant.suggest(text)),
      'models.list': async () => {
        const view = await this.models.view();
        return { ...view, models: [...view.models, ...agentModels(registry)], agents: agentModelRows(registry) };
      },
      'models.save': (input) => this.models.save(input),
      'models.remove': ({ name }) => this.models.remove(name),
      'models.setDefault': ({ name }) => this.models.setDefault(name),
      'models.test': (input) => testModel(this.models, input),
      'models.discover': () => discoverLocal(),
      'plugins.setToolPolicy': ({ id, tool, policy }) => registry.decisions.setToolPolicy(id, tool, policy),
      'plugins.acceptDefinition': ({ id, tool }) => registry.definitions.accept(id, tool),
      'chat.invoke': async ({ conversationId, plugin, tool, args }) =>
        (await chat()).invoke(conversationId, plugin, tool, args),
      'chat.cancel': async ({ turnId }) => (await chat()).cancel(turnId),
      'chat.exitPassthrough': async ({ conversationId }) => (await chat()).exitPassthrough(conversationId),
      'apps.open': ({ conversationId, messageId }) => this.apps.open(conversationId, messageId),
      'apps.call': ({ conversationId, messageId, tool, args }) => this.apps.call(conversationId, messageId, tool, args),
      'app.openLink': ({ url }) => this.apps.openLink(url, this.opts.openLink),
    };
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.signIns.dispose();
    this.opened?.chat.dispose();
    this.opened?.store.dispose();
    super.dispose();
  }
}
