/**
 * A model's turn: the conversation goes to the model with the offered tools; its text streams
 * into an answer; each tool call it asks for becomes a card, is decided (policy, or the person)
 * and run, the calls it asked for at once running at once; the results go back to the model, and
 * so on until it answers without calls, the step cap, a failure, or Stop. Stop cancels the model's
 * request, every call running and every prompt waiting, at once.
 */
import { randomUUID } from 'node:crypto';
import type { LanguageModel } from 'ai';
import type { TokenUsage } from '../../../shared/assistant';
import type { ChatMessage } from '../../../shared/contract';
import { failure } from '../../../shared/failures';
import type { CallHandle } from '../../host';
import type { LiveMessage } from '../live-messages';
import { modelMessages } from './history';
import { runStep } from './model-step';
import { offeredTools, sdkTools } from './offered';
import { runCall, startCard, type CallContext } from './tool-calls';

export interface TurnOptions extends Omit<CallContext, 'track' | 'stopped'> {
  model: LanguageModel;
  /** The configured model's name, shown on its answers. */
  modelName: string;
  /** Names the model and its server in failures. */
  where: string;
  system: string;
  maxSteps: number;
  /** The conversation's messages as stored (the history is rebuilt from them at every step). */
  storedMessages(): readonly ChatMessage[];
  pluginName(id: string): string;
  onUsage?(usage: TokenUsage): void;
}

export class ModelTurn {
  private readonly abort = new AbortController();
  private readonly calls = new Set<CallHandle>();

  constructor(private readonly o: TurnOptions) {}

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  /** Stop: the model's request, every running call and every waiting prompt end now. */
  stop(reason: string): void {
    if (this.stopped) return;
    this.abort.abort(reason);
    this.o.approvals.cancel({ turnId: this.o.turnId });
    for (const h of this.calls) h.cancel(reason);
  }

  /** Registers a running call so Stop reaches it; returns the unregistration. */
  track(handle: CallHandle): () => void {
    this.calls.add(handle);
    if (this.stopped) handle.cancel('stopped by the user');
    return () => this.calls.delete(handle);
  }

  async run(): Promise<void> {
    const { o } = this;
    const ctx: CallContext = { ...o, track: (h) => this.track(h), stopped: () => this.stopped };
    // An answer appears with its first text: a step that only calls tools leaves no empty bubble.
    let answer: LiveMessage | null = null;
    // Tokens of steps that wrote no answer, carried to the next answer shown.
    let carried: TokenUsage = { inputTokens: null, outputTokens: null };
    const end = (change: Partial<ChatMessage>): void => o.messages.finish(answer ?? this.startAnswer(), change);
    for (let step = 1; ; step++) {
      const offered = offeredTools(o.registry);
      const result = await runStep({
        model: o.model,
        where: o.where,
        system: o.system,
        messages: modelMessages(o.storedMessages()),
        tools: sdkTools(offered, o.pluginName),
        signal: this.abort.signal,
        onText: (t) => o.messages.append((answer ??= this.startAnswer()), t),
      });
      o.onUsage?.(result.usage);
      const usage = addUsage(carried, result.usage);
      if (result.kind === 'stopped') return end({ status: 'cancelled', usage });
      if (result.kind === 'failed') {
        // Retry is always offered: after the key is fixed or the server started, it may work.
        const { failure: f, retry } = result.problem;
        return end({ status: 'error', failure: f, usage, retry: retry ?? {} });
      }
      if (result.calls.length === 0) return end({ status: 'done', usage });
      // The text before the calls ends first: its last batched piece goes out before any card.
      if (answer) o.messages.finish(answer, { status: 'done', usage });
      const cards = result.calls.map((c) => ({ call: c, ...startCard(ctx, c, offered) }));
      carried = answer ? { inputTokens: null, outputTokens: null } : usage;
      answer = null;
      await Promise.all(cards.map(({ call, live, target }) => runCall(ctx, call, live, target)));
      if (this.stopped) return;
      if (step >= o.maxSteps) return this.capReached(step);
    }
  }

  private startAnswer(): LiveMessage {
    const { o } = this;
    return o.messages.start(o.conversationId, { id: randomUUID(), role: 'assistant', createdAt: Date.now(), text: '', turnId: o.turnId, status: 'streaming', model: o.modelName });
  }

  private capReached(steps: number): void {
    const { o } = this;
    const note = this.startAnswer();
    o.messages.finish(note, {
      status: 'error',
      failure: failure('cancelled', `stopped after ${steps} rounds of tool calls (the step cap): ask the model to go on if it should`),
      retry: {},
    });
  }
}

/** Two steps' tokens together; a count neither step reported stays unknown. */
function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const add = (x: number | null, y: number | null): number | null => (x === null ? y : y === null ? x : x + y);
  return { inputTokens: add(a.inputTokens, b.inputTokens), outputTokens: add(a.outputTokens, b.outputTokens) };
}
