/**
 * A Mehrhof agent plugin as a language model of the AI SDK, so the host's one tool loop (offered
 * tools, approvals, cards, Stop, bounded results) serves it like any provider. Each request either
 * goes on with the run that waits for tool results (the request ends with them) or starts a new
 * `agent.run` with the person's last message as the prompt, the conversation before it as context,
 * and the offered tools as `{name, description, input_schema}`. Made per turn: the run it holds
 * ends with the turn (`close`).
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamResult,
  LanguageModelV3ToolResultOutput,
} from '@ai-sdk/provider';
import type { PluginRegistry } from '../../plugins';
import { untrustedData } from '../loop/history';
import { AgentRun } from './agent-run';

export class AgentPluginModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'plugboard.agent-plugin';
  readonly supportedUrls = {};
  private run: AgentRun | null = null;

  constructor(
    private readonly registry: PluginRegistry,
    /** The plugin's id. */
    readonly modelId: string,
  ) {}

  doGenerate(): never {
    throw new Error('an agent plugin answers in a stream only');
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    // The conversation may hold earlier results in the same message: the agent gets only the
    // ones it waits on.
    const run = this.run;
    const results = trailingResults(options.prompt).filter((r) => run?.awaiting.has(r.id));
    if (run && !run.finished && run.awaiting.size > 0 && results.length === run.awaiting.size) {
      const problem = await run.answer(results);
      if (problem) throw new Error(problem);
      return { stream: run.step(options.abortSignal) };
    }
    run?.cancel('a new request to the agent');
    this.run = await this.start(options);
    return { stream: this.run.step(options.abortSignal) };
  }

  /** Ends the run still open (the turn ended: done, stopped, or at its step cap). */
  close(reason: string): void {
    if (this.run && !this.run.finished) this.run.cancel(reason);
    this.run = null;
  }

  private async start(options: LanguageModelV3CallOptions): Promise<AgentRun> {
    const name = this.registry.record(this.modelId)?.spec?.name ?? this.modelId;
    const available = await this.registry.call(this.modelId, 'agent.available', {}).done;
    if (!available.ok)
      throw new Error(
        `the agent plugin ${name} could not be asked whether it is ready (${available.code}): ${available.message}`,
      );
    const a = available.value.data as { available?: unknown; reason?: unknown } | null;
    if (a?.available === false)
      throw new Error(
        `the agent plugin ${name} is not available: ${typeof a.reason === 'string' ? a.reason : 'it gives no reason'}`,
      );
    const { prompt, conversation, system } = split(options.prompt);
    const tools = (options.tools ?? []).flatMap((t) =>
      t.type === 'function' ? [{ name: t.name, description: t.description ?? '', input_schema: t.inputSchema }] : [],
    );
    const run = new AgentRun(name);
    const handle = this.registry.call(
      this.modelId,
      'agent.run',
      { prompt, context: { conversation, ...(system ? { system } : {}) }, tools },
      { onEvent: run.onEvent },
    );
    run.attach(handle);
    options.abortSignal?.addEventListener('abort', () => run.cancel('stopped by the user'), { once: true });
    return run;
  }
}

/** The tool results a request ends with (the answers to the agent's last tool calls). */
function trailingResults(prompt: LanguageModelV3Prompt): Array<{ id: string; result: string }> {
  const last = prompt.at(-1);
  if (last?.role !== 'tool') return [];
  return last.content.flatMap((p) =>
    p.type === 'tool-result' ? [{ id: p.toolCallId, result: resultText(p.output) }] : [],
  );
}

/**
 * A result as the agent gets it. Its protocol hands results over as results (agent.tool_result,
 * or marked as one in the context): the data itself, without the block that marks a plugin's
 * output as untrusted in a language model's text (loop/history.ts).
 */
function resultText(o: LanguageModelV3ToolResultOutput): string {
  switch (o.type) {
    case 'text':
      return untrustedData(o.value);
    case 'error-text':
      return `error: ${untrustedData(o.value)}`;
    case 'json':
    case 'error-json':
      return JSON.stringify(o.value);
    case 'execution-denied':
      return `denied: ${o.reason ?? 'the user denied this call'}`;
    default:
      return JSON.stringify(o);
  }
}

/** The person's last message (the prompt), what came before it as role/content pairs, and the system text. */
function split(prompt: LanguageModelV3Prompt): {
  prompt: string;
  conversation: Array<{ role: string; content: string }>;
  system: string;
} {
  const system = prompt.flatMap((m) => (m.role === 'system' ? [m.content] : [])).join('\n\n');
  const turns = prompt.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, content: textOf(m) }));
  const lastUser = turns.findLastIndex((t) => t.role === 'user');
  const said = lastUser >= 0 ? (turns[lastUser]?.content ?? '') : '';
  return { prompt: said, conversation: turns.slice(0, Math.max(lastUser, 0)).filter((t) => t.content), system };
}

function textOf(m: LanguageModelV3Prompt[number]): string {
  if (m.role === 'system') return m.content;
  return m.content
    .map((p) => {
      if (p.type === 'text') return p.text;
      if (p.type === 'tool-call') return `(called ${p.toolName} with ${JSON.stringify(p.input)})`;
      if (p.type === 'tool-result') return `(${p.toolName} returned: ${resultText(p.output)})`;
      return '';
    })
    .filter(Boolean)
    .join('\n');
}
