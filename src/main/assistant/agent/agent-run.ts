/**
 * One `agent.run` call of a Mehrhof agent plugin, read step by step. The agent runs its own loop
 * inside one call: it streams text, and when it wants a tool it sends `tool_use` and waits for the
 * host's `agent.tool_result`. The host's tool loop works in steps (a model request that ends with
 * tool calls, then the next request with their results), so a run is cut into steps at each
 * `tool_use`: the step ends with that call, the run is held (its deadlines stand still while the
 * tool runs or waits for approval), and the next step first answers the call, then reads on.
 */
import type { LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import type { CallEvent } from '../../../shared/plugin';
import type { CallHandle } from '../../plugins';

/** What an agent streams (PROTOCOLS.md: text, thinking, tool_use, usage, error, complete, file). */
type AgentEvent = { type: string; data: unknown };

interface StepState {
  textId: string | null;
  n: number;
  usage: { input: number; output: number; counted: boolean };
}

/** A step's end: the run answered, asked for a tool, or failed. */
type Ending = { kind: 'tool'; id: string } | { kind: 'done' } | { kind: 'failed'; message: string };

export class AgentRun {
  private readonly queue: Array<AgentEvent | Ending> = [];
  private wake: (() => void) | null = null;
  private ended = false;
  /** Tool calls the agent waits on, by id. */
  readonly awaiting = new Set<string>();
  private handle!: CallHandle;

  constructor(private readonly pluginName: string) {}

  /** Starts reading `handle`'s events (its `onEvent` is `this.onEvent`). */
  attach(handle: CallHandle): void {
    this.handle = handle;
    void handle.done.then((outcome) => {
      if (outcome.ok) this.push({ kind: 'done' });
      else
        this.push({
          kind: 'failed',
          message: `the agent plugin ${this.pluginName} failed (${outcome.code}): ${outcome.message}`,
        });
    });
  }

  readonly onEvent = (e: CallEvent): void => {
    if (e.type !== 'stream') return;
    const d = e.data as { type?: unknown; data?: unknown } | null;
    if (d && typeof d.type === 'string') this.push({ type: d.type, data: d.data });
  };

  get finished(): boolean {
    return this.ended;
  }

  /** Answers the tool calls the agent waits on, in order, and lets its deadlines run again. */
  async answer(results: Array<{ id: string; result: string }>): Promise<string | null> {
    this.handle.hold?.(false);
    for (const r of results) {
      this.awaiting.delete(r.id);
      const sent = await this.handle.request?.('agent.tool_result', { tool_id: r.id, result: r.result });
      if (sent && !sent.ok)
        return `the agent plugin ${this.pluginName} did not take the result of ${r.id}: ${sent.message}`;
    }
    return null;
  }

  cancel(reason: string): void {
    this.ended = true;
    this.handle.cancel(reason);
  }

  /** The next step's stream parts, up to the next tool call or the end of the run. */
  step(signal: AbortSignal | undefined): ReadableStream<LanguageModelV3StreamPart> {
    const st: StepState = { textId: null, n: 0, usage: { input: 0, output: 0, counted: false } };
    return new ReadableStream<LanguageModelV3StreamPart>({
      start: (c) => c.enqueue({ type: 'stream-start', warnings: [] }),
      // A pull that enqueues nothing is not called again by the stream: read on until one does.
      pull: async (c) => {
        for (;;) {
          const next = await this.next(signal);
          if (next === null) return c.close();
          if (this.emit(next, c, st)) return;
        }
      },
    });
  }

  /** Turns one event into stream parts; false when it gave none. */
  private emit(
    next: AgentEvent | Ending,
    c: ReadableStreamDefaultController<LanguageModelV3StreamPart>,
    st: StepState,
  ): boolean {
    const closeText = (): void => {
      if (st.textId) c.enqueue({ type: 'text-end', id: st.textId });
      st.textId = null;
    };
    if ('kind' in next) {
      closeText();
      if (next.kind !== 'tool') this.ended = true;
      // An agent reports its usage for the whole run, at its end: a step that ends with a tool
      // call took nothing of its own (not an unknown to estimate).
      if (next.kind === 'tool') st.usage.counted = true;
      if (next.kind === 'failed') c.enqueue({ type: 'error', error: new Error(next.message) });
      else
        c.enqueue({
          type: 'finish',
          usage: stepUsage(st.usage),
          finishReason: { unified: next.kind === 'tool' ? 'tool-calls' : 'stop', raw: undefined },
        });
      c.close();
      return true;
    }
    switch (next.type) {
      case 'text':
      case 'thinking': {
        const delta = typeof next.data === 'string' ? next.data : '';
        if (!delta) return false;
        if (next.type === 'thinking') {
          const id = `r${st.n++}`;
          c.enqueue({ type: 'reasoning-start', id });
          c.enqueue({ type: 'reasoning-delta', id, delta });
          c.enqueue({ type: 'reasoning-end', id });
          return true;
        }
        if (!st.textId) c.enqueue({ type: 'text-start', id: (st.textId = `t${st.n++}`) });
        c.enqueue({ type: 'text-delta', id: st.textId, delta });
        return true;
      }
      case 'tool_use': {
        const use = next.data as { id?: unknown; name?: unknown; input?: unknown } | null;
        if (!use || typeof use.name !== 'string') return false;
        const id = typeof use.id === 'string' && use.id ? use.id : `tool_${st.n++}`;
        closeText();
        this.awaiting.add(id);
        // The agent waits for the result: its deadlines stand still until the host answers.
        this.handle.hold?.(true);
        c.enqueue({ type: 'tool-call', toolCallId: id, toolName: use.name, input: JSON.stringify(use.input ?? {}) });
        // The step ends with the call; the run goes on in the next step, after the result.
        this.queue.unshift({ kind: 'tool', id });
        return true;
      }
      case 'usage': {
        const u = next.data as Record<string, unknown> | null;
        st.usage.input += num(u?.input_tokens ?? u?.inputTokens ?? u?.prompt_tokens);
        st.usage.output += num(u?.output_tokens ?? u?.outputTokens ?? u?.completion_tokens);
        st.usage.counted = true;
        return false;
      }
      case 'error': {
        const d = next.data as { message?: unknown } | string | null;
        const message =
          typeof d === 'string' ? d : typeof d?.message === 'string' ? d.message : 'an error with no message';
        this.queue.unshift({
          kind: 'failed',
          message: `the agent plugin ${this.pluginName} reported an error: ${message}`,
        });
        return false;
      }
      default:
        // `complete` is not the end (the response is); `file` and `tool_result` are the agent's own.
        return false;
    }
  }

  private push(item: AgentEvent | Ending): void {
    this.queue.push(item);
    this.wake?.();
  }

  /** The next queued item; null once the step was aborted. */
  private async next(signal: AbortSignal | undefined): Promise<AgentEvent | Ending | null> {
    while (this.queue.length === 0) {
      if (signal?.aborted) return null;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.wake = null;
          signal?.removeEventListener('abort', done);
          resolve();
        };
        this.wake = done;
        signal?.addEventListener('abort', done, { once: true });
      });
    }
    return this.queue.shift() as AgentEvent | Ending;
  }
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function stepUsage(u: { input: number; output: number; counted: boolean }): LanguageModelV3Usage {
  const total = (n: number): number | undefined => (u.counted ? n : undefined);
  return {
    inputTokens: { total: total(u.input), noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: total(u.output), text: undefined, reasoning: undefined },
  };
}
