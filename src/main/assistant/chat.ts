/**
 * Chat sessions: what the person types becomes a tool call (`/tool …`, or a palette pick), a
 * passthrough turn (while a plugin holds the session for this conversation), or a note that no
 * model is connected yet. Each call is a plugin turn (plugin-turns.ts) whose output streams to the
 * UI as `chat.turn` events and is kept in the conversation store. Which conversation holds a
 * plugin's passthrough session is the host's to know: this service asks it and follows its events.
 */
import { randomUUID } from 'node:crypto';
import { resultText } from '../../shared/chunks';
import type { ChatMessage, Conversation, ConversationSummary, Events, OpResult } from '../../shared/contract';
import { failure, type Outcome } from '../../shared/failures';
import { Disposable, Emitter } from '../../shared/lifecycle';
import type { ContextMessage } from '../../shared/model';
import type { PassthroughChange, PluginRegistry } from '../host';
import { PluginTurns } from './plugin-turns';
import { parseSlash } from './slash';
import type { ConversationStore } from './store';
import { exposedDeclarations, exposedUserCommands } from './tools';

const NEW_TITLE = 'New conversation';

export type ChatEvent = { [E in keyof Events]: { name: E; payload: Events[E] } }[keyof Events];

export class ChatService extends Disposable {
  private readonly turns: PluginTurns;
  private readonly _onDidEvent = this._register(new Emitter<ChatEvent>());
  readonly onDidEvent = this._onDidEvent.event;

  constructor(
    private readonly registry: PluginRegistry,
    private readonly store: ConversationStore,
  ) {
    super();
    this.turns = this._register(
      new PluginTurns(store, {
        turn: (e) => this.emit('chat.turn', e),
        ended: (conversationId) => this.announce(conversationId),
      }),
    );
    this._register(registry.onDidChangePassthrough((e) => this.onPassthrough(e)));
  }

  list(): ConversationSummary[] {
    return this.store.list();
  }

  create(title?: string): Conversation {
    const id = randomUUID();
    this.store.create(id, title?.trim() || NEW_TITLE, Date.now());
    return this.get(id) as Conversation;
  }

  get(id: string): Conversation | null {
    const c = this.store.get(id);
    if (!c) return null;
    const live = this.turns.live(id);
    const messages = c.messages.map((m) => live.get(m.turnId ?? '') ?? m);
    return { ...c, messages, passthrough: this.passthroughOf(id) };
  }

  rename(id: string, title: string): OpResult {
    if (!this.store.rename(id, title.trim())) return failure('not_found', `no conversation ${id}`);
    this.announce(id);
    return { ok: true, detail: 'renamed' };
  }

  delete(id: string): OpResult {
    for (const s of this.registry.passthroughSessions()) if (s.owner === id) this.registry.endPassthrough(s.pluginId, 'conversation deleted');
    if (!this.store.delete(id)) return failure('not_found', `no conversation ${id}`);
    // Its calls have nowhere to go now: stop them.
    this.turns.stopAll(id, 'the conversation was deleted');
    return { ok: true, detail: 'deleted' };
  }

  /** Text as the person typed it. */
  send(conversationId: string, text: string): Outcome<{ turnId: string | null }> {
    if (!this.store.get(conversationId)) return failure('not_found', `no conversation ${conversationId}`);
    const inPassthrough = this.passthroughOf(conversationId);
    if (inPassthrough) return this.input(conversationId, inPassthrough.pluginId, text);
    if (text.trim().startsWith('/')) {
      const parsed = parseSlash(text);
      if (!parsed.ok) return failure('invalid_input', parsed.message);
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

  invoke(conversationId: string, plugin: string, tool: string, args: Record<string, unknown>): Outcome<{ turnId: string }> {
    if (!this.store.get(conversationId)) return failure('not_found', `no conversation ${conversationId}`);
    const shown = Object.keys(args).length ? `/${plugin}:${tool} ${JSON.stringify(args)}` : `/${plugin}:${tool}`;
    return this.startTurn(conversationId, shown, plugin, tool, args);
  }

  cancel(turnId: string): OpResult {
    if (!this.turns.cancel(turnId, 'stopped by the user')) return failure('invalid_state', 'that turn is not running');
    return { ok: true, detail: 'cancelled' };
  }

  exitPassthrough(conversationId: string): OpResult {
    const p = this.passthroughOf(conversationId);
    if (!p) return failure('invalid_state', 'no passthrough session is open in this conversation');
    this.registry.endPassthrough(p.pluginId, 'ended by the user');
    return { ok: true, detail: `left the session with ${p.pluginName}` };
  }

  private resolveTool(plugin: string | null, tool: string): Outcome<{ plugin: string }> {
    if (plugin) return { ok: true, plugin };
    const owners = new Set([
      ...exposedDeclarations(this.registry).filter((d) => d.tool === tool).map((d) => d.plugin),
      ...exposedUserCommands(this.registry).filter((c) => c.name === tool).map((c) => c.plugin),
    ]);
    if (owners.size === 1) return { ok: true, plugin: [...owners][0] as string };
    if (owners.size > 1) return failure('invalid_input', `several plugins have a tool "${tool}": ${[...owners].map((p) => `/${p}:${tool}`).join(', ')}`);
    return failure('not_found', `no exposed tool is called "${tool}"; type / to see them`);
  }

  private startTurn(conversationId: string, shown: string, plugin: string, tool: string, args: Record<string, unknown>): Outcome<{ turnId: string }> {
    const context = this.context(conversationId);
    this.addMessage(conversationId, { id: randomUUID(), role: 'user', createdAt: Date.now(), text: shown });
    const turnId = randomUUID();
    const message: ChatMessage = { id: randomUUID(), role: 'plugin', createdAt: Date.now(), text: '', pluginId: plugin, tool, args, turnId, status: 'streaming' };
    this.turns.start(conversationId, message, (onEvent) => this.registry.call(plugin, tool, args, { context, owner: conversationId, onEvent }));
    return { ok: true, turnId };
  }

  private input(conversationId: string, plugin: string, text: string): Outcome<{ turnId: string }> {
    this.addMessage(conversationId, { id: randomUUID(), role: 'user', createdAt: Date.now(), text, passthrough: true });
    const turnId = randomUUID();
    const message: ChatMessage = { id: randomUUID(), role: 'plugin', createdAt: Date.now(), text: '', pluginId: plugin, turnId, status: 'streaming', passthrough: true };
    this.turns.start(conversationId, message, (onEvent) => this.registry.input(plugin, text, { owner: conversationId, onEvent }));
    return { ok: true, turnId };
  }

  private onPassthrough(e: PassthroughChange): void {
    const pluginName = this.pluginName(e.pluginId);
    const tell = (conversationId: string | undefined, active: boolean, reason: string): void => {
      if (conversationId && this.store.get(conversationId)) this.emit('chat.passthrough', { conversationId, pluginId: e.pluginId, pluginName, active, reason });
    };
    if (!e.active) return tell(e.owner, false, e.reason);
    // One session per plugin: the conversation whose call kept it now holds it.
    if (e.previousOwner !== undefined) tell(e.previousOwner, false, 'continued in another conversation');
    tell(e.owner, true, e.reason);
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
    const s = this.registry.passthroughSessions().find((x) => x.owner === conversationId);
    return s ? { pluginId: s.pluginId, pluginName: this.pluginName(s.pluginId) } : null;
  }

  private pluginName(id: string): string {
    return this.registry.record(id)?.spec?.name ?? id;
  }

  private announce(conversationId: string): void {
    const s = this.store.list().find((x) => x.id === conversationId);
    if (s) this.emit('chat.updated', s);
  }

  private emit<E extends keyof Events>(name: E, payload: Events[E]): void {
    this._onDidEvent.fire({ name, payload } as ChatEvent);
  }
}
