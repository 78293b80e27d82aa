/**
 * Chat sessions: what the user types becomes a tool call (`/tool …`, or a palette pick), a
 * passthrough turn (while a plugin keeps the session), or a note that no model is connected yet.
 * Each call is a turn whose output streams to the UI as `chat.turn` events and is kept in the
 * conversation store. Built so that model-driven tool calls (a later issue) plug in as another
 * source of turns: a turn only needs a plugin, a tool and arguments.
 */
import { randomUUID } from 'node:crypto';
import { BoundedText } from '../../shared/bounded-text';
import { chunkText, resultText } from '../../shared/chunks';
import type { ChatMessage, Conversation, ConversationSummary, Events, TurnEvent } from '../../shared/contract';
import { DisposableStore, Emitter, type IDisposable } from '../../shared/lifecycle';
import type { CallEvent, ContextMessage } from '../../shared/model';
import { exposedDeclarations, exposedUserCommands } from '../host/registry/assistant-view';
import type { PluginRegistry } from '../host/registry/registry';
import type { CallHandle } from '../host/supervisor/supervisor';
import { parseSlash } from './slash';
import type { ConversationStore } from './store';

type Result<T> = { ok: true } & T | { ok: false; message: string };

/** Stream text reaches the UI in batches at most this often (the UI coalesces per frame too). */
const STREAM_BATCH_MS = 16;
const NEW_TITLE = 'New conversation';

interface Running {
  conversationId: string;
  /** The message as last written out; its text is brought up to date from `body` when read. */
  message: ChatMessage;
  /** The plugin's output so far, bounded (a plugin that never stops must not fill memory). */
  body: BoundedText;
  handle: CallHandle | null;
  pending: string;
  /** Finished here (its conversation deleted, the app closing): later call events are ignored. */
  ended: boolean;
}

export class ChatService implements IDisposable {
  private readonly running = new Map<string, Running>();
  /** Which conversation holds each plugin's passthrough session. */
  private readonly passthrough = new Map<string, string>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly subs = new DisposableStore();
  private readonly _onDidEvent = new Emitter<{ [E in keyof Events]: { name: E; payload: Events[E] } }[keyof Events]>();
  readonly onDidEvent = this._onDidEvent.event;

  constructor(
    private readonly registry: PluginRegistry,
    private readonly store: ConversationStore,
  ) {
    this.subs.add(
      registry.host.onDidChangePassthrough((e) => {
        if (e.active) return;
        const conversationId = this.passthrough.get(e.pluginId);
        if (!conversationId) return;
        this.passthrough.delete(e.pluginId);
        this.emit('chat.passthrough', { conversationId, pluginId: e.pluginId, pluginName: this.pluginName(e.pluginId), active: false, reason: e.reason });
      }),
    );
  }

  list(): ConversationSummary[] {
    return this.store.list();
  }

  create(title?: string): Conversation {
    const id = randomUUID();
    const now = Date.now();
    this.store.create(id, title?.trim() || NEW_TITLE, now);
    return this.get(id) as Conversation;
  }

  get(id: string): Conversation | null {
    const c = this.store.get(id);
    if (!c) return null;
    // Send what is batched first: the snapshot then holds exactly the text already streamed, so
    // a client merging it with stream events never sees a piece twice.
    for (const run of this.running.values()) if (run.conversationId === id) this.flushOne(run);
    const messages = c.messages.map((m) => {
      const run = this.running.get(m.turnId ?? '');
      return run ? { ...run.message, text: run.body.toString() } : m;
    });
    return { ...c, messages, passthrough: this.passthroughOf(id) };
  }

  rename(id: string, title: string): Result<{ detail: string }> {
    if (!this.store.rename(id, title.trim())) return { ok: false, message: `no conversation ${id}` };
    this.announce(id);
    return { ok: true, detail: 'renamed' };
  }

  delete(id: string): Result<{ detail: string }> {
    for (const [plugin, conv] of this.passthrough) if (conv === id) this.registry.supervisor(plugin)?.endPassthrough('conversation deleted');
    if (!this.store.delete(id)) return { ok: false, message: `no conversation ${id}` };
    // Its calls have nowhere to go now: stop them.
    for (const run of [...this.running.values()]) {
      if (run.conversationId !== id) continue;
      this.settle(run);
      run.handle?.cancel('the conversation was deleted');
    }
    return { ok: true, detail: 'deleted' };
  }

  /** Text as the user typed it. */
  send(conversationId: string, text: string): Result<{ turnId: string | null }> {
    if (!this.store.get(conversationId)) return { ok: false, message: `no conversation ${conversationId}` };
    const inPassthrough = this.passthroughOf(conversationId);
    if (inPassthrough) return this.input(conversationId, inPassthrough.pluginId, text);
    if (text.trim().startsWith('/')) {
      const parsed = parseSlash(text);
      if (!parsed.ok) return parsed;
      const target = this.resolveTool(parsed.call.plugin, parsed.call.tool);
      if (!target.ok) return target;
      return this.startTurn(conversationId, text.trim(), target.plugin, parsed.call.tool, parsed.call.args);
    }
    this.addMessage(conversationId, { id: randomUUID(), role: 'user', createdAt: Date.now(), text });
    this.addMessage(conversationId, {
      id: randomUUID(),
      role: 'system',
      createdAt: Date.now(),
      text: 'No model is connected yet, so plain messages are not answered. Type **/** to pick a tool, or `/plugin:tool key=value` to call one.',
    });
    return { ok: true, turnId: null };
  }

  invoke(conversationId: string, plugin: string, tool: string, args: Record<string, unknown>): Result<{ turnId: string }> {
    if (!this.store.get(conversationId)) return { ok: false, message: `no conversation ${conversationId}` };
    const shown = Object.keys(args).length ? `/${plugin}:${tool} ${JSON.stringify(args)}` : `/${plugin}:${tool}`;
    return this.startTurn(conversationId, shown, plugin, tool, args);
  }

  cancel(turnId: string): Result<{ detail: string }> {
    const r = this.running.get(turnId);
    if (!r) return { ok: false, message: 'that turn is not running' };
    r.handle?.cancel('stopped by the user');
    return { ok: true, detail: 'cancelled' };
  }

  exitPassthrough(conversationId: string): Result<{ detail: string }> {
    const p = this.passthroughOf(conversationId);
    if (!p) return { ok: false, message: 'no passthrough session is open in this conversation' };
    this.registry.supervisor(p.pluginId)?.endPassthrough('ended by the user');
    return { ok: true, detail: `left the session with ${p.pluginName}` };
  }

  private resolveTool(plugin: string | null, tool: string): Result<{ plugin: string }> {
    if (plugin) return { ok: true, plugin };
    const owners = new Set([
      ...exposedDeclarations(this.registry).filter((d) => d.tool === tool).map((d) => d.plugin),
      ...exposedUserCommands(this.registry).filter((c) => c.name === tool).map((c) => c.plugin),
    ]);
    if (owners.size === 1) return { ok: true, plugin: [...owners][0] as string };
    if (owners.size > 1) return { ok: false, message: `several plugins have a tool "${tool}": ${[...owners].map((p) => `/${p}:${tool}`).join(', ')}` };
    return { ok: false, message: `no exposed tool is called "${tool}"; type / to see them` };
  }

  private startTurn(conversationId: string, shown: string, plugin: string, tool: string, args: Record<string, unknown>): Result<{ turnId: string }> {
    const context = this.context(conversationId);
    this.addMessage(conversationId, { id: randomUUID(), role: 'user', createdAt: Date.now(), text: shown });
    const turnId = randomUUID();
    const message: ChatMessage = { id: randomUUID(), role: 'plugin', createdAt: Date.now(), text: '', pluginId: plugin, tool, args, turnId, status: 'streaming' };
    const run = this.begin(conversationId, message);
    run.handle = this.registry.call(plugin, tool, args, { context, onEvent: (e) => this.onCallEvent(run, e) });
    return { ok: true, turnId };
  }

  private input(conversationId: string, plugin: string, text: string): Result<{ turnId: string }> {
    this.addMessage(conversationId, { id: randomUUID(), role: 'user', createdAt: Date.now(), text, passthrough: true });
    const turnId = randomUUID();
    const message: ChatMessage = { id: randomUUID(), role: 'plugin', createdAt: Date.now(), text: '', pluginId: plugin, turnId, status: 'streaming', passthrough: true };
    const run = this.begin(conversationId, message);
    run.handle = this.registry.input(plugin, text, { onEvent: (e) => this.onCallEvent(run, e) });
    return { ok: true, turnId };
  }

  private begin(conversationId: string, message: ChatMessage): Running {
    const run: Running = { conversationId, message, body: new BoundedText(message.text), handle: null, pending: '', ended: false };
    this.running.set(message.turnId as string, run);
    this.store.putMessage(conversationId, message);
    this.emit('chat.turn', { type: 'start', conversationId, turnId: message.turnId as string, message });
    return run;
  }

  private onCallEvent(run: Running, e: CallEvent): void {
    if (run.ended) return;
    if (e.type === 'stream') {
      const text = chunkText(e.data);
      run.body.append(text);
      run.pending += text;
      this.scheduleFlush();
      return;
    }
    this.flushOne(run);
    const m = run.message;
    if (e.type === 'complete') {
      const body = resultText(e.data);
      if (typeof e.data === 'string' || e.data === null || e.data === undefined) {
        const sofar = run.body.toString();
        if (body) run.body.append(sofar && !sofar.endsWith('\n') ? `\n\n${body}` : body);
      } else m.result = e.data;
      m.status = e.success ? 'done' : 'error';
      if (!e.success) m.failure = { ok: false, code: 'plugin_error', message: 'the plugin reported success: false' };
      m.keepSession = e.keepSession;
      const sup = m.pluginId ? this.registry.supervisor(m.pluginId) : undefined;
      const holder = m.pluginId ? this.passthrough.get(m.pluginId) : undefined;
      if (m.pluginId && sup?.inPassthrough && holder !== run.conversationId) {
        // One session per plugin: the conversation whose call kept it now holds it.
        const name = this.pluginName(m.pluginId);
        if (holder) this.emit('chat.passthrough', { conversationId: holder, pluginId: m.pluginId, pluginName: name, active: false, reason: 'continued in another conversation' });
        this.passthrough.set(m.pluginId, run.conversationId);
        this.emit('chat.passthrough', { conversationId: run.conversationId, pluginId: m.pluginId, pluginName: name, active: true, reason: 'the plugin kept the session' });
      }
    } else {
      m.status = e.failure.code === 'cancelled' ? 'cancelled' : 'error';
      m.failure = e.failure;
    }
    m.text = run.body.toString();
    this.settle(run);
    this.store.putMessage(run.conversationId, m);
    this.emit('chat.turn', { type: 'end', conversationId: run.conversationId, turnId: m.turnId as string, message: { ...m } });
    this.announce(run.conversationId);
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      for (const run of this.running.values()) this.flushOne(run);
    }, STREAM_BATCH_MS);
  }

  private flushOne(run: Running): void {
    if (!run.pending) return;
    const text = run.pending;
    run.pending = '';
    this.emit('chat.turn', { type: 'stream', conversationId: run.conversationId, turnId: run.message.turnId as string, messageId: run.message.id, text } satisfies TurnEvent);
  }

  /** The conversation so far, as plugins receive it (passthrough input excluded). */
  private context(conversationId: string): ContextMessage[] {
    const c = this.store.get(conversationId);
    if (!c) return [];
    return c.messages
      .filter((m) => !m.passthrough && m.role !== 'system' && (m.text || m.result !== undefined))
      .map((m) => ({ role: m.role === 'user' ? 'user' : 'assistant', content: m.text || resultText(m.result) }));
  }

  private addMessage(conversationId: string, message: ChatMessage): void {
    this.store.putMessage(conversationId, message);
    const c = this.store.get(conversationId);
    if (c && c.title === NEW_TITLE && message.role === 'user' && !message.passthrough) {
      this.store.rename(conversationId, message.text.replace(/\s+/g, ' ').slice(0, 60));
    }
    this.emit('chat.turn', { type: 'end', conversationId, turnId: message.id, message });
    this.announce(conversationId);
  }

  private passthroughOf(conversationId: string): Conversation['passthrough'] {
    for (const [plugin, conv] of this.passthrough) {
      if (conv === conversationId) return { pluginId: plugin, pluginName: this.pluginName(plugin) };
    }
    return null;
  }

  private pluginName(id: string): string {
    return this.registry.record(id)?.spec?.name ?? id;
  }

  private announce(conversationId: string): void {
    const s = this.store.list().find((x) => x.id === conversationId);
    if (s) this.emit('chat.updated', s);
  }

  private emit<E extends keyof Events>(name: E, payload: Events[E]): void {
    this._onDidEvent.fire({ name, payload } as never);
  }

  /** A turn is over for this service; nothing the call does later changes its message. */
  private settle(run: Running): void {
    run.ended = true;
    this.running.delete(run.message.turnId as string);
  }

  /**
   * Ends every turn still running as cancelled and stores it so, before the store closes: the
   * cancels below complete asynchronously, after the store is gone.
   */
  dispose(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    for (const run of [...this.running.values()]) {
      const m = run.message;
      m.text = run.body.toString();
      m.status = 'cancelled';
      m.failure = { ok: false, code: 'cancelled', message: 'Plugboard closed while the call was running' };
      this.settle(run);
      this.store.putMessage(run.conversationId, m);
      run.handle?.cancel('the app is closing');
    }
    this.subs.dispose();
    this._onDidEvent.dispose();
  }
}
