/**
 * One turn of the back end's `chat.turn` events, read as what `plugboard chat` reports: the
 * model's text as it streams, each tool call (`plugin` messages with `call`) with its decision,
 * its streamed output and its result, and at the end the turn's answer or its failure. The
 * shapes are the `--json` lines, exactly; the printers decide how a person sees them.
 */
import type { ApprovalDecision, DecidedBy, Question, TokenUsage, ToolCallInfo } from '../../../shared/assistant';
import type { ChatMessage, TurnEvent } from '../../../shared/contract';
import { failure, type Failure } from '../../../shared/failures';

export type ChatLine =
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; id: string; plugin: string; tool: string; arguments: Record<string, unknown> }
  | { type: 'approval'; id: string; decision: 'allowed' | 'denied'; by: 'policy' | 'user' | 'flag' }
  | { type: 'tool_stream'; id: string; data: string }
  | { type: 'tool_result'; id: string; success: true; output: unknown }
  | { type: 'tool_result'; id: string; success: false; code: string; message: string }
  | { type: 'usage'; input_tokens: number | null; output_tokens: number | null }
  | { type: 'done'; text: string; conversation: string }
  | { type: 'error'; code: string; message: string };

/** What a person's view adds to a line (the JSON lines leave it out). */
export interface LineMeta {
  /** A tool result: from the decision to the result. */
  durationMs?: number;
  /** An approval the person gave: which of the four answers. */
  decision?: ApprovalDecision;
  /** A call of the assistant's own tools (ask_user, find_tools): no plugin runs it. */
  builtin?: boolean;
  /** An ask_user call: what the model asks. */
  question?: Question;
  /** The usage line: the provider gave no counts, so these are estimates. */
  estimated?: boolean;
}

/** The plugin named on the lines of the assistant's own tools (ask_user, find_tools). */
export const ASSISTANT_PLUGIN = 'assistant';

/** A model's question (ask_user) that waits for the person's answer. */
export interface AskedQuestion {
  callId: string;
  question: Question;
}

/** A model's call that waits for the person's answer. */
export interface AskedCall {
  callId: string;
  plugin: string;
  tool: string;
  args: Record<string, unknown>;
  /** What the card shows besides: the plugin's hints, a changed definition, text carried from another result. */
  hints?: ToolCallInfo['hints'];
  change?: ToolCallInfo['change'];
  carried?: ToolCallInfo['carried'];
}

export interface TurnSink {
  line(l: ChatLine, meta?: LineMeta): void;
  /** A call's approval prompt is up (once per call): answer it with chat.approve. */
  ask(call: AskedCall): void;
  /** The model asks the person (once per question): answer it with chat.answer. */
  question(q: AskedQuestion): void;
}

type Kind = 'answer' | 'call';

const BY: Record<DecidedBy, 'policy' | 'user' | 'flag'> = { policy: 'policy', person: 'user', flag: 'flag' };

export class TurnLines {
  /** Messages of this turn seen so far: a model's answer (or a passthrough reply) or a tool call. */
  private readonly kinds = new Map<string, Kind>();
  /** Message id → the id its lines carry. */
  private readonly callIds = new Map<string, string>();
  private readonly decided = new Set<string>();
  private readonly asked = new Set<string>();
  private readonly answers: string[] = [];
  private failed: Failure | null = null;

  constructor(private readonly sink: TurnSink) {}

  /** One `chat.turn` event of this turn. */
  event(e: TurnEvent): void {
    if (e.type === 'stream') {
      const kind = this.kinds.get(e.messageId);
      if (kind === 'answer') this.sink.line({ type: 'text', delta: e.text });
      else if (kind === 'call') this.sink.line({ type: 'tool_stream', id: this.callIdOf(e.messageId), data: e.text });
      return;
    }
    if (e.type === 'start') return this.seen(e.message);
    if (e.type === 'end') return this.ended(e.message);
  }

  /** The turn's answer (every answer of it, in order), or why it failed. */
  outcome(): { ok: true; text: string } | Failure {
    return this.failed ?? { ok: true, text: this.answers.join('\n\n') };
  }

  private callIdOf(messageId: string): string {
    return this.callIds.get(messageId) ?? messageId;
  }

  private seen(m: ChatMessage): void {
    if (m.role === 'assistant' || (m.role === 'plugin' && m.passthrough)) {
      this.kinds.set(m.id, 'answer');
      return;
    }
    if (m.role !== 'plugin') return;
    if (!this.kinds.has(m.id)) {
      // A model's call is named by the model's id for it; a tool typed as `/plugin:tool` by its message's.
      const id = m.call?.id ?? m.id;
      this.kinds.set(m.id, 'call');
      this.callIds.set(m.id, id);
      const builtin = m.call?.builtin !== undefined;
      const meta: LineMeta | undefined = builtin
        ? { builtin, ...(m.call?.question ? { question: m.call.question } : {}) }
        : undefined;
      this.sink.line(
        {
          type: 'tool_call',
          id,
          plugin: builtin ? ASSISTANT_PLUGIN : (m.pluginId ?? ''),
          tool: m.tool ?? '',
          arguments: m.args ?? {},
        },
        meta,
      );
    }
    this.approval(m);
    const call = m.call;
    if (call?.question && m.status === 'streaming' && !this.asked.has(call.id)) {
      this.asked.add(call.id);
      this.sink.question({ callId: call.id, question: call.question });
    }
  }

  private ended(m: ChatMessage): void {
    if (m.role === 'assistant' || (m.role === 'plugin' && m.passthrough)) {
      this.kinds.set(m.id, 'answer');
      if (m.text) this.answers.push(m.text);
      if (m.status === 'error')
        this.failed = m.failure ?? failure('model_error', 'the answer failed, and no reason was given');
      else if (m.status === 'cancelled')
        this.failed = failure('cancelled', m.failure?.message ?? 'the turn was stopped');
      return;
    }
    if (m.role !== 'plugin') return;
    this.seen(m);
    const id = this.callIdOf(m.id);
    // A denied call never ran: its approval line says so, and there is no result.
    if (m.call?.approval.state === 'denied' && !m.failure) return;
    if (m.status === 'done') {
      this.sink.line(
        { type: 'tool_result', id, success: true, output: m.result !== undefined ? m.result : m.text },
        durationOf(m),
      );
      return;
    }
    const f = m.failure ?? failure('plugin_error', `the call ended ${m.status ?? 'without a status'}`);
    this.sink.line({ type: 'tool_result', id, success: false, code: f.code, message: f.message }, durationOf(m));
  }

  /** The call's decision, once, when there is one; its prompt, once, while it waits. */
  private approval(m: ChatMessage): void {
    const call = m.call;
    if (!call) return;
    const a = call.approval;
    // Asked once per card, and again if its definition changed while the person decided (the
    // card comes back pending with the change: assistant/loop/tool-calls.ts).
    const asking = `${call.id}#${JSON.stringify(call.change ?? null)}`;
    if (a.state === 'pending' && !this.asked.has(asking)) {
      this.asked.add(asking);
      this.sink.ask({
        callId: call.id,
        plugin: m.pluginId ?? '',
        tool: m.tool ?? '',
        args: m.args ?? {},
        ...(call.hints ? { hints: call.hints } : {}),
        ...(call.change ? { change: call.change } : {}),
        ...(call.carried ? { carried: call.carried } : {}),
      });
      return;
    }
    if ((a.state !== 'allowed' && a.state !== 'denied') || this.decided.has(call.id)) return;
    // Stopped while it waited: nobody decided; its result says it was cancelled.
    if (a.state === 'denied' && m.failure?.code === 'cancelled') return;
    this.decided.add(call.id);
    const meta: LineMeta = {
      ...(a.decision ? { decision: a.decision } : {}),
      ...(call.builtin ? { builtin: true } : {}),
    };
    this.sink.line({ type: 'approval', id: call.id, decision: a.state, by: BY[a.by ?? 'policy'] }, meta);
  }
}

function durationOf(m: ChatMessage): LineMeta | undefined {
  const meta: LineMeta = {
    ...(m.call?.durationMs !== undefined ? { durationMs: m.call.durationMs } : {}),
    ...(m.call?.builtin ? { builtin: true } : {}),
  };
  return Object.keys(meta).length ? meta : undefined;
}

/** The usage line of a turn's summed tokens; none when nothing was counted (stopped before the model spoke). */
export function usageLine(u: TokenUsage | null): [ChatLine, LineMeta] | null {
  if (!u || (u.inputTokens === null && u.outputTokens === null)) return null;
  return [
    { type: 'usage', input_tokens: u.inputTokens, output_tokens: u.outputTokens },
    u.estimated ? { estimated: true } : {},
  ];
}
