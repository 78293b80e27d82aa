/**
 * A model's turn: the conversation goes to the model with the offered tools (request.ts); its
 * text streams into an answer; each tool call it asks for becomes a card as soon as it is whole,
 * is decided (policy, or the person) and run, the calls it asked for at once running at once (the
 * assistant's own tools, ask_user and find_tools, run here: builtins.ts); the results go back to
 * the model, and so on until it answers without calls, the step cap, a failure, or Stop. Stop
 * cancels the model's request, every call running and every prompt and question waiting, at once.
 */
import { randomUUID } from 'node:crypto';
import type { LanguageModel } from 'ai';
import type { AssistantSettings, RequestInfo, TokenUsage } from '../../../shared/assistant';
import type { ChatMessage } from '../../../shared/contract';
import { failure } from '../../../shared/failures';
import type { CallHandle } from '../../plugins';
import type { LiveMessage } from '../live-messages';
import type { StoredFile } from '../store';
import { isBuiltin, runBuiltin } from './builtins';
import { runStep } from './model-step';
import type { Questions } from './questions';
import { buildRequest } from './request';
import type { ToolChooser } from './selection';
import { addUsage, estimateTokens } from './tokens';
import { runCall, startCard, type CallContext } from './tool-calls';

export interface TurnOptions extends Omit<CallContext, 'track' | 'stopped'> {
  model: LanguageModel;
  /** The configured model's name, shown on its answers. */
  modelName: string;
  /** Names the model and its server in failures. */
  where: string;
  /** The assistant's own part of the system prompt (plugins' instructions are added per step). */
  system: string;
  settings: AssistantSettings;
  chooser: ToolChooser;
  questions: Questions;
  /** Nobody can answer a question: ask_user gets "the user is not available" at once. */
  unattended?: boolean;
  /** The conversation's messages as stored (the history is rebuilt from them at every step). */
  storedMessages(): readonly ChatMessage[];
  /** An attached file's bytes, and whether this model takes images (history.ts). */
  file?(id: string): StoredFile | null;
  images?: boolean;
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

  /** Aborted by Stop: what else the turn waits on (enrichers) listens to it. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Stop: the model's request, every running call and every waiting prompt end now. */
  stop(reason: string): void {
    if (this.stopped) return;
    this.abort.abort(reason);
    this.o.approvals.cancel({ turnId: this.o.turnId });
    this.o.questions.cancel(this.o.turnId);
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
    const found = new Set<string>();
    // An answer appears with its first text: a step that only calls tools leaves no empty bubble.
    let answer: LiveMessage | null = null;
    // Tokens of steps that wrote no answer, carried to the next answer shown.
    let carried: TokenUsage = NO_USAGE;
    const end = (change: Partial<ChatMessage>): void => o.messages.finish(answer ?? this.startAnswer(), change);
    for (let step = 1; ; step++) {
      const req = buildRequest({ ...o, baseSystem: o.system, stored: o.storedMessages(), found });
      // The step's details go on its first message (the answer, or the first card).
      let details: { request: RequestInfo } | undefined = { request: req.info };
      const once = (): { request: RequestInfo } | undefined => {
        const d = details;
        details = undefined;
        return d;
      };
      const calls: Array<Promise<void>> = [];
      let written = 0;
      const result = await runStep({
        model: o.model,
        where: o.where,
        system: req.system,
        messages: req.messages,
        tools: req.tools,
        signal: this.abort.signal,
        onText: (t) => {
          written += t.length;
          o.messages.append((answer ??= this.startAnswer(once())), t);
        },
        // A call starts as soon as it is whole; text after it is a new answer, below its card.
        onToolCall: (call) => {
          written += JSON.stringify(call.input ?? null).length;
          if (answer) o.messages.finish(answer, { status: 'done' });
          answer = null;
          if (isBuiltin(call.toolName)) {
            const search = (q: string, limit: number) => o.chooser.search(req.all, q, limit);
            calls.push(runBuiltin({ ...o, search, found, extra: once() }, { ...call, toolName: call.toolName }));
            return;
          }
          const { live, target, refused } = startCard(ctx, call, req.offered, once());
          calls.push(runCall(ctx, call, live, target, refused));
        },
      });
      // Where the provider gave no counts, an estimate, marked as one; a request that failed or
      // was stopped before the model wrote anything consumed nothing anyone can count, and counts
      // nothing (a server that refused every request added thousands of tokens a try).
      const unanswered = result.kind !== 'answered' && written === 0;
      const stepUsage: TokenUsage =
        result.usage.inputTokens === null && result.usage.outputTokens === null
          ? unanswered
            ? NO_USAGE
            : { inputTokens: req.info.estimatedTokens, outputTokens: estimateTokens(written), estimated: true }
          : result.usage;
      o.onUsage?.(stepUsage);
      const usage = addUsage(carried, stepUsage);
      // Calls that started end before the turn does (Stop has cancelled them already).
      await Promise.all(calls);
      if (result.kind === 'stopped') return end({ status: 'cancelled', usage });
      if (result.kind === 'failed') {
        // Retry is always offered: after the key is fixed or the server started, it may work.
        const { failure: f, retry } = result.problem;
        return end({ status: 'error', failure: f, usage, retry: retry ?? {} });
      }
      if (calls.length === 0) return end({ status: 'done', usage });
      if (answer) o.messages.finish(answer, { status: 'done', usage });
      carried = answer ? NO_USAGE : usage;
      answer = null;
      if (this.stopped) return;
      if (step >= o.settings.maxSteps) return this.capReached(step);
    }
  }

  private startAnswer(extra?: Partial<ChatMessage>): LiveMessage {
    const { o } = this;
    return o.messages.start(o.conversationId, {
      id: randomUUID(),
      role: 'assistant',
      createdAt: Date.now(),
      text: '',
      turnId: o.turnId,
      status: 'streaming',
      model: o.modelName,
      ...extra,
    });
  }

  private capReached(steps: number): void {
    const { o } = this;
    const note = this.startAnswer();
    o.messages.finish(note, {
      status: 'error',
      failure: failure(
        'step_limit',
        `stopped after ${steps} rounds of tool calls (the step cap): ask the model to go on if it should`,
      ),
      retry: {},
    });
  }
}

const NO_USAGE: TokenUsage = { inputTokens: null, outputTokens: null };
