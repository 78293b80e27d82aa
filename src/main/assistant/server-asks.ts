/**
 * What MCP servers ask of the person and of the model, answered in the conversation of the call
 * the server is working on, whether a model turn runs there or the person called the tool
 * themselves (the palette):
 *   - elicitation: a form card (the question card with the server's schema), whose answer goes
 *     back as accept with the fields, or decline / cancel; it waits like a model's question,
 *     survives a reload, and ends as cancel when the call goes or the app closes;
 *   - sampling: an approval card (Allow once / Deny) showing the server's messages, its system
 *     prompt and the token cap; once allowed, the conversation's model writes the reply, which
 *     the card shows. Every decision is audited (sizes and names, never the text).
 * Where nobody can answer (no conversation, `plugboard chat` without a terminal or with
 * --approve none), a form is declined and sampling refused; `--approve all` allows sampling.
 */
import { randomUUID } from 'node:crypto';
import { generateText, type LanguageModel } from 'ai';
import type { ApprovalState, SamplingView, ToolCallInfo } from '../../shared/assistant';
import type { ChatMessage } from '../../shared/contract';
import { failure, ok, type Result } from '../../shared/failures';
import type {
  AuditLog,
  ElicitReply,
  ElicitRequest,
  PluginRegistry,
  SampleReply,
  SampleRequest,
  ServerAsks,
} from '../plugins';
import { validateArguments } from '../plugins';
import { agentPluginOf } from './agent/agents';
import type { LiveMessage, LiveMessages } from './live-messages';
import type { Approvals } from './loop/approvals';
import type { Questions } from './loop/questions';
import { describeModelError } from './models/errors';
import type { ModelStore } from './models/model-store';
import { baseUrlOf, languageModel } from './models/providers';
import type { ConversationStore } from './store';

/** Who is there to answer in a conversation, from the model turn running in it (if any). */
export interface Attendance {
  /** The running model turn, whose Stop ends the question too. */
  turnId?: string;
  flag?: 'all' | 'none';
  unattended?: boolean;
}

export interface ServerAsksDeps {
  registry: PluginRegistry;
  store: ConversationStore;
  messages: LiveMessages;
  questions: Questions;
  approvals: Approvals;
  models: ModelStore;
  audit: AuditLog;
  attendance(conversationId: string): Attendance;
  /** Opens a page in the person's browser (the desktop app); in the web UI the card opens it. */
  openExternal?(url: string): void;
}

/** MCP's stop reasons where the provider's finish reason has one. */
const STOP_REASONS: Record<string, string> = { stop: 'endTurn', length: 'maxTokens' };

export class AssistantServerAsks implements ServerAsks {
  constructor(private readonly d: ServerAsksDeps) {}

  async elicit(req: ElicitRequest): Promise<ElicitReply> {
    const where = this.where(req.conversationId);
    if (!where || where.attendance.unattended || where.attendance.flag) return { action: 'decline' };
    const id = `elicit-${randomUUID()}`;
    const page = req.url ? { url: req.url, domain: new URL(req.url).host } : undefined;
    const question = {
      question: req.message,
      form: page ? { type: 'object', properties: {} } : req.schema,
      from: this.name(req.pluginId),
      ...(page ? { page } : {}),
    };
    const info: ToolCallInfo = {
      id,
      name: `${req.pluginId} asks`,
      approval: { state: 'allowed', by: 'policy' },
      question,
    };
    const card = this.card(where, req.pluginId, 'elicitation', info);
    const withdraw = (): void => this.d.questions.cancelOne(id);
    req.signal.addEventListener('abort', withdraw, { once: true });
    const reply = await this.d.questions.askForm(id, where.turnId, question, (content) =>
      validateArguments('the form', req.schema, content)?.message.replace(
        /^arguments for the form do not match its schema: /,
        '',
      ),
    );
    req.signal.removeEventListener('abort', withdraw);
    const fields = 'content' in reply ? Object.keys(reply.content) : [];
    this.d.audit.append({
      action: 'elicitation',
      plugin: req.pluginId,
      ok: 'content' in reply,
      detail: page
        ? 'content' in reply
          ? `the person agreed to open a page on ${page.domain}`
          : `the page on ${page.domain} was ${reply.refused === 'decline' ? 'declined' : 'not opened'}`
        : 'content' in reply
          ? `the person answered the form; fields: ${fields.join(', ') || 'none'}`
          : `the form was ${reply.refused === 'decline' ? 'declined' : 'cancelled'}`,
    });
    if (page && 'content' in reply) {
      // The desktop app opens it here; in a browser the card opened it in the person's click.
      this.d.openExternal?.(page.url);
      this.d.messages.append(card, `Opened ${page.domain}`);
      this.d.messages.finish(card, { status: 'done' });
      return { action: 'accept', content: {} };
    }
    if ('content' in reply) {
      this.d.messages.append(
        card,
        Object.entries(reply.content)
          .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
          .join('\n'),
      );
      this.d.messages.finish(card, { status: 'done' });
      return { action: 'accept', content: reply.content };
    }
    const why =
      reply.refused === 'decline'
        ? 'you declined'
        : req.signal.aborted
          ? 'the call ended before you answered'
          : 'not answered';
    this.d.messages.finish(card, { status: 'cancelled', failure: failure('cancelled', why) });
    return { action: reply.refused };
  }

  async sample(req: SampleRequest): Promise<Result<SampleReply>> {
    const plugin = this.name(req.pluginId);
    const where = this.where(req.conversationId);
    if (!where)
      return failure(
        'invalid_state',
        `${plugin} asked for a reply from a model outside any conversation: there is nobody to approve it`,
      );
    const picked = await this.model(where.conversationId, plugin);
    if (!picked.ok) return picked;
    const chosen = picked.value;
    const view: SamplingView = {
      from: plugin,
      messages: req.messages,
      maxTokens: req.maxTokens,
      model: chosen.name,
      ...(req.systemPrompt ? { systemPrompt: req.systemPrompt } : {}),
    };
    const id = `sampling-${randomUUID()}`;
    // --approve all answers for the person, terminal or not; without one nobody can answer.
    const { flag, unattended } = where.attendance;
    const flagged: ApprovalState | null =
      flag === 'all'
        ? { state: 'allowed', by: 'flag' }
        : flag === 'none' || unattended
          ? { state: 'denied', by: 'flag' }
          : null;
    const info: ToolCallInfo = {
      id,
      name: `${req.pluginId} sampling`,
      approval: flagged ?? { state: 'queued' },
      sampling: view,
    };
    const card = this.card(where, req.pluginId, 'sampling', info);
    const approval = flagged ?? (await this.approve(card, info, where, req.signal));
    const allowed = approval.state === 'allowed';
    const sizes = `${req.messages.length} message${req.messages.length === 1 ? '' : 's'}, at most ${req.maxTokens} tokens, ${chosen.name}`;
    this.d.audit.append({
      action: 'sampling',
      plugin: req.pluginId,
      ok: allowed,
      detail: `${allowed ? 'allowed' : 'denied'} by ${approval.by}${approval.decision ? ` (${approval.decision})` : ''}; ${sizes}`,
    });
    if (!allowed) {
      this.d.messages.finish(card, { status: 'cancelled', call: { ...info, approval } });
      return failure(
        'cancelled',
        approval.by === 'person'
          ? 'the person denied the sampling request'
          : 'sampling is not allowed here (nobody is there to approve it)',
      );
    }
    this.d.messages.update(card, { call: { ...info, approval } });
    const started = Date.now();
    try {
      const r = await generateText({
        model: chosen.model,
        messages: req.messages.map((m) => ({ role: m.role, content: m.text })),
        maxOutputTokens: req.maxTokens,
        ...(req.systemPrompt ? { system: req.systemPrompt } : {}),
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
        ...(req.stopSequences ? { stopSequences: req.stopSequences } : {}),
        abortSignal: req.signal,
        maxRetries: 0,
      });
      this.d.messages.append(card, r.text);
      this.d.messages.finish(card, { status: 'done', call: { ...info, approval, durationMs: Date.now() - started } });
      return ok({
        text: r.text,
        model: r.response.modelId || chosen.modelId,
        stopReason: STOP_REASONS[r.finishReason] ?? r.finishReason,
      });
    } catch (e) {
      const f = describeModelError(e, chosen.where).failure;
      this.d.messages.finish(card, { status: 'error', failure: f, call: { ...info, approval } });
      return f;
    }
  }

  /** The conversation a request belongs to, if it exists, with who is there to answer. */
  private where(
    conversationId: string | undefined,
  ): { conversationId: string; turnId: string; attendance: Attendance } | undefined {
    if (!conversationId || !this.d.store.has(conversationId)) return undefined;
    const attendance = this.d.attendance(conversationId);
    return { conversationId, turnId: attendance.turnId ?? randomUUID(), attendance };
  }

  private name(pluginId: string): string {
    return this.d.registry.record(pluginId)?.spec?.name ?? pluginId;
  }

  private card(
    where: { conversationId: string; turnId: string },
    pluginId: string,
    tool: string,
    call: ToolCallInfo,
  ): LiveMessage {
    const message: ChatMessage = {
      id: randomUUID(),
      role: 'plugin',
      createdAt: Date.now(),
      text: '',
      turnId: where.turnId,
      status: 'streaming',
      pluginId,
      tool,
      args: {},
      call,
    };
    return this.d.messages.start(where.conversationId, message);
  }

  /** The person's answer on the card; the server withdrawing the request is a denial. */
  private async approve(
    card: LiveMessage,
    info: ToolCallInfo,
    where: { conversationId: string; turnId: string },
    signal: AbortSignal,
  ): Promise<ApprovalState> {
    const withdraw = (): void => void this.d.approvals.answer(info.id, 'deny');
    signal.addEventListener('abort', withdraw, { once: true });
    const answer = await this.d.approvals.ask(
      info.id,
      { conversationId: where.conversationId, turnId: where.turnId, check: () => undefined },
      () => this.d.messages.update(card, { call: { ...info, approval: { state: 'pending' } } }),
      () => signal.aborted,
    );
    signal.removeEventListener('abort', withdraw);
    if (answer.decision === 'cancelled' || signal.aborted) return { state: 'denied', by: 'policy' };
    // The card offers Allow once and Deny only: sampling is never allowed for good.
    return answer.decision === 'deny'
      ? { state: 'denied', by: 'person', decision: 'deny' }
      : { state: 'allowed', by: 'person', decision: 'once' };
  }

  /** The conversation's model (or the default), which must be a configured one. */
  private async model(
    conversationId: string,
    plugin: string,
  ): Promise<Result<{ model: LanguageModel; name: string; modelId: string; where: string }>> {
    const named = this.d.store.get(conversationId)?.model ?? null;
    if (agentPluginOf(this.d.registry, named))
      return failure(
        'no_model',
        `${plugin} asked for a reply from the conversation's model, but its model is an agent plugin, which cannot serve sampling requests: choose a connected model for the conversation`,
      );
    const config = this.d.models.resolve(named);
    if (!config)
      return failure(
        'no_model',
        `${plugin} asked for a reply from the conversation's model, but no model is connected: add one in Settings → Models`,
      );
    const apiKey = await this.d.models.apiKey(config.name);
    return ok({
      model: languageModel(config, apiKey),
      name: config.name,
      modelId: config.model,
      where: `${config.name} (${baseUrlOf(config) || config.provider})`,
    });
  }
}
