/**
 * Calls of a 2026-07-28 server that offers the tasks extension (`io.modelcontextprotocol/tasks`):
 * such a server may answer a `tools/call` with a task instead of its result, then report the
 * task's status on `tasks/get`, ask for input on it, and stop it on `tasks/cancel`. The official
 * extension package (`@modelcontextprotocol/ext-tasks`) follows the task: it calls the tool,
 * polls at the server's interval, answers its questions (through the same answers as every other
 * question of the server, mcp-client-side.ts), and cancels it. Each new status message is streamed
 * on the call's card. The SDK's client cannot carry the extension's wire shapes, so its requests
 * go on the wire as they are (the transport's raw requests, mcp.ts), framed with the 2026 `_meta`.
 */
import {
  createTaskSessionFromClient,
  resultFromTaskOutcome,
  TaskCancelledError,
  TaskFailedError,
  type ApplicationInputRequest,
  type JsonRpcResponse,
  type RawClientDispatch,
  type TaskEnabledSession,
} from '@modelcontextprotocol/ext-tasks/client';
import type { Client, ClientCapabilities, Implementation } from '@modelcontextprotocol/client';
import type { CancelToken } from '../../../shared/cancel';
import { failure, type Failure } from '../../../shared/failures';
import { signInFailure } from '../remote/link';
import type { ClientAnswers } from './mcp-client-side';
import type { CallSink } from './types';

/** Whether the connected server offers the tasks extension of the 2026-07-28 revision. */
export function offersTasks2026(client: Client): boolean {
  if (client.getProtocolEra() !== 'modern') return false;
  const ext = (client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[
    'io.modelcontextprotocol/tasks'
  ];
  return typeof ext === 'object' && ext !== null;
}

export interface Tasks2026Options {
  client: Client;
  /** Sends one request on the wire as it is and resolves with its answer (the transport's raw requests). */
  raw(request: unknown, signal?: AbortSignal, timeoutMs?: number): Promise<JsonRpcResponse>;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  answers: ClientAnswers;
  endpointId: string;
}

export class Tasks2026 {
  private readonly session: TaskEnabledSession;

  constructor(opts: Tasks2026Options) {
    const rawDispatch: RawClientDispatch = (request, options) =>
      opts.raw(request, options?.signal, options?.context?.requestTimeoutMs);
    this.session = createTaskSessionFromClient(opts.client, {
      endpointId: opts.endpointId,
      rawDispatch,
      v2RequestFraming: {
        protocolVersion: opts.client.getNegotiatedProtocolVersion() ?? '2026-07-28',
        clientInfo: { ...opts.clientInfo },
        clientCapabilities: JSON.parse(JSON.stringify(opts.capabilities)) as Record<string, never>,
      },
      onInputRequest: async (request: ApplicationInputRequest, context) => {
        const signal = context.signal ?? new AbortController().signal;
        if (request.kind === 'elicitation') return answerOf(await opts.answers.elicit(request.params as never, signal));
        if (request.kind === 'sampling') return (await opts.answers.sample(request.params as never, signal)) as never;
        return opts.answers.roots() as never;
      },
    });
  }

  /** Runs one call; the server decides whether it becomes a task. Its status messages are streamed. */
  async call(
    name: string,
    args: Record<string, unknown>,
    progressToken: string,
    cancel: CancelToken,
    requestTimeoutMs: number,
    sink: CallSink,
  ): Promise<{ ok: true; result: unknown } | Failure> {
    const abort = new AbortController();
    let execution: Awaited<ReturnType<TaskEnabledSession['callTool']>> | undefined;
    const offCancel = cancel.onCancel(() => {
      // Stop the server's work too (tasks/cancel), then let go of the call.
      if (execution?.kind === 'task') void execution.cancel().catch(() => undefined);
      abort.abort();
    });
    try {
      execution = await this.session.callTool(name, args as never, {
        signal: abort.signal,
        metadata: { progressToken },
        requestTimeoutMs,
      });
      sink.activity();
      let said: string | undefined;
      const { outcome } = await execution.settle({
        signal: abort.signal,
        onEvent: (e) => {
          sink.activity();
          const message = e.type === 'task' ? e.task.statusMessage : undefined;
          if (message && message !== said) {
            said = message;
            // One line per status, so the card reads as a log of the task.
            sink.stream(`${message}\n`);
          }
        },
      });
      if (outcome.status === 'cancelled') return failure('cancelled', 'the server cancelled the task');
      return { ok: true, result: resultFromTaskOutcome(outcome) };
    } catch (e) {
      if (cancel.isCancelled || e instanceof TaskCancelledError) return failure('cancelled', 'call cancelled');
      const signIn = signInFailure(e);
      if (signIn) return signIn;
      if (e instanceof TaskFailedError)
        return failure('plugin_error', `the task failed: ${e.message}`, {
          ...(e.code !== undefined ? { rpcCode: e.code } : {}),
          ...(e.data !== undefined ? { data: e.data } : {}),
        });
      return failure('plugin_error', (e as Error).message);
    } finally {
      offCancel();
    }
  }

  dispose(): void {
    void this.session.close().catch(() => undefined);
  }
}

/** An elicitation answer as the extension package takes it (its content limited to the form's flat values). */
function answerOf(r: { action: 'accept' | 'decline' | 'cancel'; content?: unknown }): never {
  return (r.content !== undefined ? { action: r.action, content: r.content } : { action: r.action }) as never;
}
