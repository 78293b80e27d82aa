/**
 * The assistant: a conversation's plain messages answered by its model (the conversation's own,
 * else the default), one model turn at a time per conversation (loop/model-turn.ts), with the
 * approval prompts of its tool calls, Stop, Retry, and, without any model, tool suggestions for
 * what was typed. Where keys come from: the model store (API keys in the secret store).
 */
/* eslint-disable max-lines -- one whole concern: a conversation's model turns (start, approvals, Stop, Retry, suggestions) */
import { randomUUID } from 'node:crypto';
import type { LanguageModel } from 'ai';
import type { ApprovalDecision, TokenUsage } from '../../shared/assistant';
import type { ChatMessage } from '../../shared/contract';
import { failure, type Done, type Outcome } from '../../shared/failures';
import { Disposable, toDisposable } from '../../shared/lifecycle';
import type { ContextMessage } from '../../shared/plugin';
import type { AuditLog, PluginRegistry } from '../plugins';
import { AgentPluginModel } from './agent/agent-model';
import { AppCalls } from './app-calls';
import { agentPluginOf } from './agent/agents';
import { enrich } from './enrichment';
import { Plans } from './plans/plans';
import type { LiveMessages } from './live-messages';
import { Approvals } from './loop/approvals';
import { Questions, type AnswerInput } from './loop/questions';
import { ToolChooser } from './loop/selection';
import { ModelTurn } from './loop/model-turn';
import { addUsage } from './loop/tokens';
import type { ModelStore } from './models/model-store';
import { baseUrlOf, languageModel, takesImages } from './models/providers';
import { AssistantServerAsks, type Attendance } from './server-asks';
import { systemPrompt } from './system-prompt';
import type { ConversationStore } from './store';
import { ToolIndex } from './tool-search';
import { exposedDeclarations, type ToolDeclaration } from './tools';

export interface AssistantDeps {
  registry: PluginRegistry;
  store: ConversationStore;
  messages: LiveMessages;
  models: ModelStore;
  audit: AuditLog;
  /** Frames a turn for the UI (running true, then false). */
  /** A turn began or ended; a model's turn ends with the tokens its requests took. */
  turnRunning(conversationId: string, turnId: string, running: boolean, usage?: TokenUsage): void;
  context(conversationId: string): ContextMessage[];
  /** Stores a changed message and tells the UI (the person's message, once enriched). */
  rewrite(conversationId: string, message: ChatMessage): void;
  /** Opens a page in the person's browser (the desktop app: a page a server asked them to open). */
  openExternal?(url: string): void;
}

export interface StartOptions {
  /** `plugboard chat --approve all|none` (chat.send's `approve`). */
  flag?: 'all' | 'none';
  /** `plugboard chat` without a terminal: nobody can answer the model's questions (ask_user). */
  unattended?: boolean;
}

export class Assistant extends Disposable {
  readonly approvals = new Approvals();
  readonly questions = new Questions();
  /** Keeps the tool search index from one step (and turn) to the next. */
  private readonly chooser = new ToolChooser();
  /** The model turn running in each conversation. */
  private readonly running = new Map<
    string,
    { turnId: string; model: string; turn: ModelTurn; done: Promise<void>; opts: StartOptions }
  >();

  private readonly plans: Plans;
  /** Tool calls MCP Apps ask for (app-calls.ts). */
  readonly appCalls: AppCalls;

  constructor(private readonly d: AssistantDeps) {
    super();
    this.plans = new Plans(d.registry, d.turnRunning);
    this.appCalls = new AppCalls({
      ...d,
      approvals: this.approvals,
      callContext: (c, t) => this.callContext(c, t),
    });
    // MCP servers' forms and sampling requests are answered in the conversation of their call.
    const asks = new AssistantServerAsks({
      ...d,
      questions: this.questions,
      approvals: this.approvals,
      attendance: (c) => this.attendance(c),
    });
    d.registry.host.asks = asks;
    this._register(toDisposable(() => void (d.registry.host.asks = undefined)));
  }

  /** Who can answer in a conversation: its running model turn's flags, else the person at the screen. */
  private attendance(conversationId: string): Attendance {
    const r = this.running.get(conversationId);
    if (!r) return {};
    return {
      turnId: r.turnId,
      ...(r.opts.flag ? { flag: r.opts.flag } : {}),
      ...(r.opts.unattended ? { unattended: true } : {}),
    };
  }

  /** Whether plain messages of this conversation would be answered (a model is configured). */
  canAnswer(conversationModel: string | null): boolean {
    return (
      agentPluginOf(this.d.registry, conversationModel) !== undefined ||
      this.d.models.resolve(conversationModel) !== undefined
    );
  }

  /** The model that would answer this conversation, and whether it takes images; null: none. */
  answerer(conversationModel: string | null): { name: string; images: boolean } | null {
    const agent = agentPluginOf(this.d.registry, conversationModel);
    // An agent plugin is sent the conversation as text (agent-run.ts): it cannot see an image.
    if (agent) return { name: this.d.registry.record(agent)?.spec?.name ?? agent, images: false };
    const config = this.d.models.resolve(conversationModel);
    return config ? { name: config.name, images: takesImages(config.provider) } : null;
  }

  isBusy(conversationId: string): boolean {
    return this.running.has(conversationId) || this.plans.isBusy(conversationId);
  }

  /** Starts a model turn on the conversation as it is stored (its last message is usually the person's). */
  async start(
    conversationId: string,
    opts: StartOptions = {},
  ): Promise<Outcome<{ turnId: string; done: Promise<void> }>> {
    const c = this.d.store.get(conversationId);
    if (!c) return failure('not_found', `no conversation ${conversationId}`);
    if (this.running.has(conversationId))
      return failure('invalid_state', 'the model is still answering in this conversation: wait for it, or Stop it');
    const chosen = await this.chooseModel(c.model);
    if (!chosen.ok) return chosen;
    const { model, modelName, where } = chosen;
    const turnId = randomUUID();
    const { registry, store } = this.d;
    // Each request to the model reports its tokens; the turn's are their sum, told as it ends.
    let usage: TokenUsage | undefined;
    const turn = new ModelTurn({
      ...this.callContext(conversationId, turnId),
      ...(opts.flag ? { flag: opts.flag } : {}),
      ...(opts.unattended ? { unattended: true } : {}),
      onUsage: (u) => (usage = usage ? addUsage(usage, u) : u),
      model,
      modelName,
      where,
      system: systemPrompt(),
      settings: this.d.models.settings(),
      chooser: this.chooser,
      questions: this.questions,
      storedMessages: () => store.get(conversationId)?.messages ?? [],
      file: (id) => store.attachment(id),
      images: this.answerer(c.model)?.images ?? false,
      pluginName: (id) => registry.record(id)?.spec?.name ?? id,
    });
    this.d.turnRunning(conversationId, turnId, true);
    const done = this.enrichLast(conversationId, turn.signal)
      .then(() => turn.run())
      .finally(() => {
        if (model instanceof AgentPluginModel) model.close('the turn ended');
        this.running.delete(conversationId);
        this.d.turnRunning(conversationId, turnId, false, usage);
      });
    this.running.set(conversationId, { turnId, model: modelName, turn, done, opts });
    return { ok: true, turnId, done };
  }

  /**
   * A plan turn (`/plan <request>`): the person's message, then the planner's checklist and a
   * card per task (plans/plan-run.ts).
   */
  plan(conversationId: string, text: string): Outcome<{ turnId: string }> {
    if (!this.d.store.has(conversationId)) return failure('not_found', `no conversation ${conversationId}`);
    if (this.isBusy(conversationId))
      return failure('invalid_state', 'this conversation is busy: wait for it, or Stop it');
    const request = text.replace(/^\/plan\s+/, '').trim();
    if (!request) return failure('invalid_input', 'say what to plan: /plan <what you want done>');
    const turnId = randomUUID();
    const chosen = this.plans.choose();
    if (!chosen.ok) return chosen;
    this.d.rewrite(conversationId, { id: randomUUID(), role: 'user', createdAt: Date.now(), text });
    void this.plans.start(request, chosen, this.callContext(conversationId, turnId));
    return { ok: true, turnId };
  }

  /** What a call made in a turn of this conversation needs: approvals, audit, what is allowed here. */
  private callContext(conversationId: string, turnId: string) {
    const { registry, store, messages, audit } = this.d;
    return {
      registry,
      messages,
      approvals: this.approvals,
      audit,
      conversationId,
      turnId,
      context: () => this.d.context(conversationId),
      stored: () => store.get(conversationId)?.messages ?? [],
      allowedHere: () => store.get(conversationId)?.allowed ?? [],
      allowHere: (key: string) => {
        const now = store.get(conversationId)?.allowed ?? [];
        if (!now.includes(key)) store.setAllowed(conversationId, [...now, key]);
      },
    };
  }

  /** The conversation's model: an agent plugin chosen for it, else a configured model. */
  private async chooseModel(
    name: string | null,
  ): Promise<Outcome<{ model: LanguageModel; modelName: string; where: string }>> {
    const agent = agentPluginOf(this.d.registry, name);
    if (agent) {
      const title = this.d.registry.record(agent)?.spec?.name ?? agent;
      return {
        ok: true,
        model: new AgentPluginModel(this.d.registry, agent),
        modelName: name as string,
        where: `the agent plugin ${title}`,
      };
    }
    const config = this.d.models.resolve(name);
    if (!config) return failure('no_model', 'no model is connected: add one in Settings → Models');
    const apiKey = await this.d.models.apiKey(config.name);
    return {
      ok: true,
      model: languageModel(config, apiKey),
      modelName: config.name,
      where: `${config.name} (${baseUrlOf(config) || config.provider})`,
    };
  }

  /**
   * Runs the person's last message through the plugins' enrichers, once: a retry reads it as it
   * was enriched the first time.
   */
  private async enrichLast(conversationId: string, signal: AbortSignal): Promise<void> {
    const last = this.d.store.get(conversationId)?.messages.findLast((m) => m.role === 'user' && !m.passthrough);
    if (!last || last.enrichment !== undefined) return;
    const { prompt, steps } = await enrich(this.d.registry, last.text, signal);
    this.d.rewrite(conversationId, {
      ...last,
      enrichment: steps,
      ...(prompt !== last.text ? { enriched: prompt } : {}),
    });
  }

  /** Stops the model turn `turnId`; false when no model turn has that id. */
  stop(turnId: string, reason = 'stopped by the user'): boolean {
    for (const r of this.running.values()) {
      if (r.turnId !== turnId) continue;
      r.turn.stop(reason);
      return true;
    }
    return this.plans.stop(turnId, reason) || this.appCalls.stop(turnId, reason);
  }

  stopConversation(conversationId: string, reason: string): void {
    const r = this.running.get(conversationId);
    r?.turn.stop(reason);
    this.plans.stopConversation(conversationId, reason);
    this.appCalls.stopConversation(conversationId, reason);
    this.approvals.cancel({ conversationId });
    if (r) this.questions.cancel(r.turnId);
  }

  approve(callId: string, decision: ApprovalDecision, args?: Record<string, unknown>): Done {
    const r = this.approvals.answer(callId, decision, args);
    return r.ok ? { ok: true, detail: decision === 'deny' ? 'denied' : 'allowed' } : r;
  }

  /** The person's answer to a question (a model's ask_user, a server's form), or a form refused. */
  answer(callId: string, answer: AnswerInput | undefined, refuse?: 'decline' | 'cancel'): Done {
    const r = this.questions.answer(callId, answer, refuse);
    return r.ok ? { ok: true, detail: refuse ? `${refuse}d` : 'answered' } : r;
  }

  /** Runs the last turn again after a failure: the conversation as it is goes to the model. */
  async retry(conversationId: string): Promise<Outcome<{ turnId: string }>> {
    const last = this.d.store.get(conversationId)?.messages.findLast((m) => m.role !== 'system');
    if (!last || !canRetry(last))
      return failure('invalid_state', 'there is no failed answer to retry in this conversation');
    const r = await this.start(conversationId);
    return r.ok ? { ok: true, turnId: r.turnId } : r;
  }

  /** The exposed tools that best match `text` (BM25 over names, descriptions, tags). */
  suggest(text: string, limit = 5): ToolDeclaration[] {
    const registry = this.d.registry;
    const tools = exposedDeclarations(registry).map((decl) => ({
      key: decl.qualifiedName,
      name: decl.tool,
      plugin: registry.record(decl.plugin)?.spec?.name ?? decl.plugin,
      description: decl.description,
      ...(decl.tags ? { tags: decl.tags } : {}),
      decl,
    }));
    return new ToolIndex(tools).search(text, limit).map((t) => t.decl);
  }

  /**
   * For the app that closes: a cancelled answer, with Retry, for each turn whose model has not
   * begun to answer (`answering`): that turn writes nothing once the store has closed.
   */
  unanswered(answering: (conversationId: string) => boolean): Array<[string, ChatMessage]> {
    const note = failure('cancelled', 'Plugboard closed before the model answered');
    return [...this.running]
      .filter(([conversationId]) => !answering(conversationId))
      .map(([conversationId, r]) => [
        conversationId,
        {
          id: randomUUID(),
          role: 'assistant',
          createdAt: Date.now(),
          text: '',
          turnId: r.turnId,
          status: 'cancelled',
          model: r.model,
          failure: note,
          retry: {},
        },
      ]);
  }

  /** Stops every turn; waits until each has written its last message. */
  async stopAll(reason: string): Promise<void> {
    this.approvals.cancelAll();
    this.questions.cancel();
    this.plans.stopAll(reason);
    this.appCalls.stopAll(reason);
    for (const r of this.running.values()) r.turn.stop(reason);
    await Promise.all([...this.running.values()].map((r) => r.done));
  }
}

/** A failed or stopped answer of a model (or a tool card that failed in its turn). */
function canRetry(m: ChatMessage): boolean {
  if (m.role === 'assistant') return m.status === 'error' || m.status === 'cancelled';
  return m.role === 'plugin' && m.call !== undefined && m.status !== 'done';
}
