/**
 * Chat sessions: what the person types becomes a passthrough turn (while a plugin holds the
 * session for this conversation), a tool call (`/tool …`, or a palette pick: plugin-turns.ts), or a
 * message for the conversation's model (assistant.ts); without a model, a note that offers to
 * connect one and suggests tools for what was typed. Every turn is framed by `turn` events and its
 * messages stream as `chat.turn` events (live-messages.ts); all of it is kept in the store. Which
 * conversation holds a plugin's passthrough session is the host's to know: this asks it.
 */
/* eslint-disable max-lines -- one whole concern: routing what a person types (passthrough, tool call, model message) and the conversations' lifecycle */
import { randomUUID } from 'node:crypto';
import type { AppToolResult } from '../../shared/apps';
import { resultText } from '../../shared/chunks';
import type { ApprovalDecision, TokenUsage } from '../../shared/assistant';
import type { ChatMessage, Conversation, ConversationSummary, Events, Done } from '../../shared/contract';
import { failure, type Outcome } from '../../shared/failures';
import { Disposable, Emitter } from '../../shared/lifecycle';
import type { ContextMessage } from '../../shared/plugin';
import type { AuditLog, PassthroughChange, PluginRegistry } from '../plugins';
import { Assistant, type StartOptions } from './assistant';
import { LiveMessages } from './live-messages';
import { tokensOf } from './loop/tokens';
import type { ModelStore } from './models/model-store';
import { PassthroughMemory } from './passthrough-memory';
import { PluginTurns } from './plugin-turns';
import { RunningTurns } from './running-turns';
import { parseSlash } from './slash';
import { distinctTitle, NEW_TITLE, titleOf, type TitleCall } from './titles';
import type { ConversationStore, SaveState, StoredFile } from './store';
import { attachmentRefusal, filesOfEdit, infoOf } from './attachments';
import { appCardOf } from './app-card';
import { slashTarget } from './slash-target';
import { exposedUserCommands } from './tools';

export type ChatEvent = { [E in keyof Events]: { name: E; payload: Events[E] } }[keyof Events];

export interface ChatDeps {
  registry: PluginRegistry;
  store: ConversationStore;
  models: ModelStore;
  audit: AuditLog;
  /** Opens a page in the person's browser (the desktop app). */
  openExternal?(url: string): void;
}

export class ChatService extends Disposable {
  private readonly registry: PluginRegistry;
  private readonly store: ConversationStore;
  private readonly messages: LiveMessages;
  private readonly turns: PluginTurns;
  private closing = false; // the app closes: a turn winding down after that writes nothing
  readonly assistant: Assistant;
  private readonly running: RunningTurns;
  private readonly said = new PassthroughMemory();
  private readonly _onDidEvent = this._register(new Emitter<ChatEvent>());
  readonly onDidEvent = this._onDidEvent.event;

  constructor(d: ChatDeps) {
    super();
    this.registry = d.registry;
    this.store = d.store;
    this.running = new RunningTurns((e) => this.emit('chat.turn', e));
    this.messages = this._register(
      new LiveMessages(d.store, { turn: (e) => this.emit('chat.turn', e), ended: (id) => this.announce(id) }),
    );
    this.turns = new PluginTurns(this.messages);
    this.assistant = this._register(
      new Assistant({
        registry: d.registry,
        store: d.store,
        messages: this.messages,
        models: d.models,
        audit: d.audit,
        turnRunning: (c, t, running, usage) => this.frame(c, t, running, usage),
        context: (c) => this.context(c),
        rewrite: (c, m) => this.rewrite(c, m),
        ...(d.openExternal ? { openExternal: d.openExternal } : {}),
      }),
    );
    this._register(d.registry.onDidChangePassthrough((e) => this.onPassthrough(e)));
    // A full disk: the UI says so while changes wait in memory, and again once all are saved.
    this._register(d.store.onDidChangeSaveState((s) => this.emit('chat.saveState', s)));
  }

  list(): ConversationSummary[] {
    return this.store.list();
  }

  saveState(): SaveState {
    return this.store.saveState;
  }

  create(title?: string): Conversation {
    const id = randomUUID();
    this.store.create(id, title?.trim() || NEW_TITLE, Date.now());
    return this.get(id) as Conversation;
  }

  get(id: string): Conversation | null {
    const c = this.store.get(id);
    if (!c) return null;
    const live = this.messages.snapshot(id);
    // A message left streaming by a run of Plugboard that ended (a crash) is over: say so, once.
    const stored = c.messages.map((m) => live.get(m.id) ?? (m.status === 'streaming' ? this.interrupted(id, m) : m));
    // Passthrough turns this process saw keep their text across a reload of the page.
    const messages = this.said.fill(id, stored);
    const { allowed: _allowed, ...rest } = c;
    return {
      ...rest,
      messages,
      passthrough: this.passthroughOf(id),
      runningTurns: this.running.of(id),
      tokens: tokensOf(messages),
    };
  }

  /** A title another conversation has already gets its number (`Notes (2)`), so the list tells them apart. */
  rename(id: string, title: string): Done {
    const others = this.store.list().flatMap((x) => (x.id === id ? [] : [x.title]));
    if (!this.store.rename(id, distinctTitle(title.trim(), others)))
      return failure('not_found', `no conversation ${id}`);
    this.announce(id);
    return { ok: true, detail: 'renamed' };
  }

  delete(id: string): Done {
    for (const s of this.registry.host.passthroughSessions())
      if (s.owner === id) this.registry.host.endPassthrough(s.pluginId, 'conversation deleted');
    if (!this.store.delete(id)) return failure('not_found', `no conversation ${id}`);
    this.said.drop(id);
    // Its calls and its model's turn have nowhere to go now: stop them.
    this.assistant.stopConversation(id, 'the conversation was deleted');
    this.turns.stopAll(id, 'the conversation was deleted');
    this.messages.drop(id);
    for (const t of this.running.of(id)) this.frame(id, t, false);
    return { ok: true, detail: 'deleted' };
  }

  setModel(conversationId: string, model: string | null): Done {
    if (!this.store.setModel(conversationId, model)) return failure('not_found', `no conversation ${conversationId}`);
    this.announce(conversationId);
    return { ok: true, detail: model ? `this conversation uses ${model}` : 'this conversation uses the default model' };
  }

  /** Text as the person typed it, and the files attached to it (checked: attachments.ts). */
  async send(
    conversationId: string,
    text: string,
    opts: StartOptions = {},
    files: readonly StoredFile[] = [],
  ): Promise<Outcome<{ turnId: string | null }>> {
    const c = this.store.summary(conversationId);
    if (!c) return failure('not_found', `no conversation ${conversationId}`);
    const inPassthrough = this.passthroughOf(conversationId);
    const refused = this.filesRefused(conversationId, text, files);
    if (refused) return refused;
    if (inPassthrough) return this.input(conversationId, inPassthrough.pluginId, text);
    if (/^\/plan(\s|$)/.test(text.trim())) return this.assistant.plan(conversationId, text.trim());
    if (text.trim().startsWith('/')) {
      const parsed = parseSlash(text);
      if (!parsed.ok) return failure('invalid_input', parsed.message);
      const target = slashTarget(this.registry, parsed.call.plugin, parsed.call.tool);
      if (!target.ok) return target;
      return this.startTurn(conversationId, text.trim(), target.plugin, parsed.call.tool, parsed.call.args);
    }
    if (this.assistant.isBusy(conversationId))
      return failure('invalid_state', 'the model is still answering in this conversation: wait for it, or Stop it');
    const said: ChatMessage = {
      id: randomUUID(),
      role: 'user',
      createdAt: Date.now(),
      text,
      ...(files.length > 0 ? { attachments: infoOf(files) } : {}),
    };
    this.addMessage(conversationId, said, undefined, files);
    if (!this.assistant.canAnswer(this.store.get(conversationId)?.model ?? null))
      return this.offerModel(conversationId, text);
    const r = await this.assistant.start(conversationId, opts);
    return r.ok ? { ok: true, turnId: r.turnId } : r;
  }

  /** Why `files` cannot go with `text` in this conversation now (attachmentRefusal), or null. */
  private filesRefused(conversationId: string, text: string, files: readonly StoredFile[]): Outcome<never> | null {
    const refused = attachmentRefusal(files, {
      command: text.trim().startsWith('/'),
      passthrough: this.passthroughOf(conversationId)?.pluginName ?? null,
      model: this.assistant.answerer(this.store.get(conversationId)?.model ?? null),
    });
    return refused ? failure('invalid_input', refused) : null;
  }

  invoke(
    conversationId: string,
    plugin: string,
    tool: string,
    args: Record<string, unknown>,
  ): Outcome<{ turnId: string }> {
    if (!this.store.has(conversationId)) return failure('not_found', `no conversation ${conversationId}`);
    const shown = Object.keys(args).length ? `/${plugin}:${tool} ${JSON.stringify(args)}` : `/${plugin}:${tool}`;
    return this.startTurn(conversationId, shown, plugin, tool, args);
  }

  cancel(turnId: string): Done {
    if (!this.turns.cancel(turnId, 'stopped by the user') && !this.assistant.stop(turnId))
      return failure('invalid_state', 'that turn is not running');
    return { ok: true, detail: 'cancelled' };
  }

  /** A tool call the App shown by message `messageId` asks for (app-calls.ts). */
  appCall(
    conversationId: string,
    messageId: string,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<Outcome<{ result: AppToolResult }>> | Outcome<{ result: AppToolResult }> {
    const m = this.message(conversationId, messageId);
    if (!m.ok) return m;
    return this.assistant.appCalls.call(conversationId, m.message, tool, args);
  }

  /** One message of a conversation, as it is now (a live one with what it has so far). */
  message(conversationId: string, messageId: string): Outcome<{ message: ChatMessage }> {
    const live = this.messages.snapshot(conversationId).get(messageId);
    const m = live ?? this.store.get(conversationId)?.messages.find((x) => x.id === messageId);
    if (!m) return failure('not_found', `no message ${messageId} in conversation ${conversationId}`);
    return { ok: true, message: m };
  }

  approve(callId: string, decision: ApprovalDecision, args?: Record<string, unknown>): Done {
    return this.assistant.approve(callId, decision, args);
  }

  retry(conversationId: string): Promise<Outcome<{ turnId: string }>> {
    return this.assistant.retry(conversationId);
  }

  /**
   * The person's message `messageId`, edited and sent again: it and everything after it become
   * an earlier version (kept, shown on request, never sent to a model), and `text` is sent with
   * the message's files `keep` names (all where absent) and the files `added` while editing.
   */
  async edit(
    conversationId: string,
    messageId: string,
    text: string,
    change: { keep?: readonly string[]; added?: readonly StoredFile[] } = {},
  ): Promise<Outcome<{ turnId: string | null }>> {
    const messages = this.store.get(conversationId)?.messages;
    if (!messages) return failure('not_found', `no conversation ${conversationId}`);
    const at = messages.findIndex((m) => m.id === messageId);
    const m = messages[at];
    if (!m || m.role !== 'user' || m.passthrough || m.replaced)
      return failure(
        'invalid_input',
        'only a message you sent, not an earlier version or passthrough input, can be edited',
      );
    const files = filesOfEdit(m.attachments ?? [], { ...change, added: change.added ?? [] }, (f) =>
      this.store.attachment(f),
    );
    if (!files.ok) return files;
    if (!text.trim() && files.files.length === 0)
      return failure('invalid_input', 'empty: type a message or keep a file');
    // Refused before anything becomes an earlier version, so a refused edit changes nothing.
    const busy = this.whyBusy(conversationId) ?? this.filesRefused(conversationId, text, files.files);
    if (busy) return busy;
    this.replace(conversationId, messages.slice(at));
    return this.send(conversationId, text, {}, files.files);
  }

  /** The model's last answer written again: the answer so far becomes an earlier version. */
  async regenerate(conversationId: string): Promise<Outcome<{ turnId: string }>> {
    const messages = this.store.get(conversationId)?.messages;
    if (!messages) return failure('not_found', `no conversation ${conversationId}`);
    const at = messages.findLastIndex((m) => m.role === 'user' && !m.passthrough && !m.replaced);
    const after = messages.slice(at + 1).filter((m) => !m.replaced && m.role !== 'system');
    if (at === -1 || !after.some((m) => m.role === 'assistant' || m.call))
      return failure('invalid_state', 'there is no answer of a model to write again in this conversation');
    const busy = this.whyBusy(conversationId);
    if (busy) return busy;
    this.replace(conversationId, after);
    const r = await this.assistant.start(conversationId);
    return r.ok ? { ok: true, turnId: r.turnId } : r;
  }

  private whyBusy(conversationId: string): Outcome<never> | null {
    if (this.running.of(conversationId).length > 0 || this.assistant.isBusy(conversationId))
      return failure('invalid_state', 'this conversation is busy: wait for it, or Stop it');
    if (this.passthroughOf(conversationId))
      return failure('invalid_state', 'a passthrough session is open in this conversation: exit it first');
    return null;
  }

  /** Marks these messages as an earlier version. */
  private replace(conversationId: string, messages: readonly ChatMessage[]): void {
    for (const m of messages)
      if (!m.replaced && m.role !== 'system') this.rewrite(conversationId, { ...m, replaced: true });
  }

  exitPassthrough(conversationId: string): Done {
    const p = this.passthroughOf(conversationId);
    if (!p) return failure('invalid_state', 'no passthrough session is open in this conversation');
    this.registry.host.endPassthrough(p.pluginId, 'ended by the user');
    return { ok: true, detail: `left the session with ${p.pluginName}` };
  }

  /** Without a model, a plain message gets a note that offers to connect one, and matching tools. */
  private offerModel(conversationId: string, text: string): Outcome<{ turnId: null }> {
    const suggestions = this.assistant.suggest(text, 4).map((d) => ({ plugin: d.plugin, tool: d.tool }));
    const note =
      'No model is connected yet, so plain messages are not answered. Connect one (Ollama, LM Studio, an API key), or run a tool yourself: type **/** to pick one.';
    this.addMessage(conversationId, {
      id: randomUUID(),
      role: 'system',
      createdAt: Date.now(),
      text: note,
      card: { type: 'connect-model', suggestions },
    });
    return { ok: true, turnId: null };
  }

  private startTurn(
    conversationId: string,
    shown: string,
    plugin: string,
    tool: string,
    args: Record<string, unknown>,
  ): Outcome<{ turnId: string }> {
    const context = this.context(conversationId);
    // A user command its plugin keeps from models (share_with_model false), command and result.
    const unshared = exposedUserCommands(this.registry).some(
      (c) => c.plugin === plugin && c.name === tool && !c.shareWithModel,
    )
      ? { unshared: true }
      : {};
    this.addMessage(
      conversationId,
      { id: randomUUID(), role: 'user', createdAt: Date.now(), text: shown, ...unshared },
      { plugin, tool, args },
    );
    const turnId = randomUUID();
    const message: ChatMessage = {
      id: randomUUID(),
      role: 'plugin',
      createdAt: Date.now(),
      text: '',
      pluginId: plugin,
      tool,
      args,
      turnId,
      status: 'streaming',
      ...unshared,
      ...appCardOf(this.registry, plugin, tool),
    };
    this.frame(conversationId, turnId, true);
    this.turns.start(conversationId, message, (onEvent) =>
      this.registry.call(plugin, tool, args, {
        context,
        owner: conversationId,
        onEvent: this.framed(conversationId, turnId, onEvent),
      }),
    );
    return { ok: true, turnId };
  }

  private input(conversationId: string, plugin: string, text: string): Outcome<{ turnId: string }> {
    this.addMessage(conversationId, { id: randomUUID(), role: 'user', createdAt: Date.now(), text, passthrough: true });
    const turnId = randomUUID();
    const message: ChatMessage = {
      id: randomUUID(),
      role: 'plugin',
      createdAt: Date.now(),
      text: '',
      pluginId: plugin,
      turnId,
      status: 'streaming',
      passthrough: true,
    };
    this.frame(conversationId, turnId, true);
    this.turns.start(conversationId, message, (onEvent) =>
      this.registry.input(plugin, text, {
        owner: conversationId,
        onEvent: this.framed(conversationId, turnId, onEvent),
      }),
    );
    return { ok: true, turnId };
  }

  /** A call's events, with the turn's end announced after its final one. */
  private framed<E extends { type: string }>(
    conversationId: string,
    turnId: string,
    onEvent: (e: E) => void,
  ): (e: E) => void {
    return (e) => {
      onEvent(e);
      if (e.type !== 'stream') this.frame(conversationId, turnId, false);
    };
  }

  private frame(conversationId: string, turnId: string, running: boolean, usage?: TokenUsage): void {
    this.running.set(conversationId, turnId, running, usage);
  }

  private interrupted(conversationId: string, m: ChatMessage): ChatMessage {
    const ended: ChatMessage = {
      ...m,
      status: 'cancelled',
      failure: failure('cancelled', 'Plugboard stopped while this ran'),
    };
    if (ended.call?.approval.state === 'pending' || ended.call?.approval.state === 'queued')
      ended.call = { ...ended.call, approval: { state: 'denied', by: 'policy' } };
    this.store.putMessage(conversationId, ended);
    return ended;
  }

  private onPassthrough(e: PassthroughChange): void {
    const pluginName = this.pluginName(e.pluginId);
    const tell = (conversationId: string | undefined, active: boolean, reason: string): void => {
      if (conversationId && this.store.has(conversationId))
        this.emit('chat.passthrough', { conversationId, pluginId: e.pluginId, pluginName, active, reason });
    };
    if (!e.active) return tell(e.owner, false, e.reason);
    // One session per plugin: the conversation whose call kept it now holds it.
    if (e.previousOwner !== undefined) tell(e.previousOwner, false, 'continued in another conversation');
    tell(e.owner, true, e.reason);
  }

  /** The conversation so far, as plugins receive it (passthrough input and unshared commands excluded). */
  private context(conversationId: string): ContextMessage[] {
    const c = this.store.get(conversationId);
    if (!c) return [];
    return c.messages
      .filter(
        (m) =>
          !m.passthrough && !m.unshared && !m.replaced && m.role !== 'system' && (m.text || m.result !== undefined),
      )
      .map((m) => ({ role: m.role === 'user' ? 'user' : 'assistant', content: m.text || resultText(m.result) }));
  }

  /** A stored message changed after the fact (the enrichment of the person's message). */
  private rewrite(conversationId: string, message: ChatMessage): void {
    if (this.closing) return;
    this.store.putMessage(conversationId, message);
    this.emit('chat.turn', { type: 'end', conversationId, turnId: message.turnId ?? message.id, message });
  }

  /** `call`: the tool call the message asked for, which names the conversation better than its text. */
  private addMessage(
    conversationId: string,
    message: ChatMessage,
    call?: Omit<TitleCall, 'pluginName'> & { plugin: string },
    files?: readonly StoredFile[],
  ): void {
    this.store.putMessage(conversationId, message, files);
    if (message.role === 'user' && !message.passthrough && this.store.summary(conversationId)?.title === NEW_TITLE) {
      const others = this.store.list().flatMap((x) => (x.id === conversationId ? [] : [x.title]));
      const said = message.text.trim() || (message.attachments ?? []).map((f) => f.name).join(', ');
      this.store.rename(
        conversationId,
        distinctTitle(titleOf(said, call && { ...call, pluginName: this.pluginName(call.plugin) }), others),
      );
    }
    this.emit('chat.turn', { type: 'end', conversationId, turnId: message.id, message });
    this.announce(conversationId);
  }

  private passthroughOf(conversationId: string): Conversation['passthrough'] {
    const s = this.registry.host.passthroughSessions().find((x) => x.owner === conversationId);
    return s ? { pluginId: s.pluginId, pluginName: this.pluginName(s.pluginId) } : null;
  }

  private pluginName(id: string): string {
    return this.registry.record(id)?.spec?.name ?? id;
  }

  private announce(conversationId: string): void {
    const s = this.store.summary(conversationId);
    if (s) this.emit('chat.updated', s);
  }

  private emit<E extends keyof Events>(name: E, payload: Events[E]): void {
    const e = payload as Events['chat.turn'];
    if (name === 'chat.turn' && e.type === 'end') this.said.note(e.conversationId, e.message);
    this._onDidEvent.fire({ name, payload } as ChatEvent);
  }

  /** Ends every turn as stopped, stored so, before the store closes. */
  override dispose(): void {
    this.closing = true;
    // A question the model had not begun to answer gets a note with Retry, not silence.
    for (const [c, m] of this.assistant.unanswered((id) => this.messages.snapshot(id).size > 0))
      this.store.putMessage(c, m);
    this.messages.closeAll(failure('cancelled', 'Plugboard closed while this ran'));
    this.turns.cancelAll('the app is closing');
    void this.assistant.stopAll('the app is closing');
    super.dispose();
  }
}
