/**
 * Tool calls an MCP App asks for (`tools/call` from its frame), decided the way a model's are:
 * the tool's policy and what the person allowed in this conversation settle it without asking;
 * otherwise an approval card asks, in the conversation that shows the App (loop/tool-calls.ts,
 * the same card and the same queue as a model's calls), and Stop refuses it. Only the App's own
 * server's tools may be called, and only those whose visibility names the App; the arguments are
 * checked against the tool's schema before anything is decided. Every call is audited
 * (`app-call`, argument names only).
 *
 * A call settled without asking makes no card: an App that polls (the system monitor asks every
 * few seconds) would otherwise bury the conversation. What its App shows is the record, and the
 * audit log. The App's calls never reach the model's history (loop/history.ts).
 */
import { randomUUID } from 'node:crypto';
import { visibleToApp, type AppToolResult } from '../../shared/apps';
import { resultText } from '../../shared/chunks';
import type { ChatMessage } from '../../shared/contract';
import { failure, type Failure, type Outcome } from '../../shared/failures';
import type { CallEvent } from '../../shared/plugin';
import type { AuditLog, CallHandle, PluginRegistry } from '../plugins';
import { validateArguments } from '../plugins';
import type { LiveMessages } from './live-messages';
import type { Approvals } from './loop/approvals';
import type { StepCall } from './loop/model-step';
import type { Offered } from './loop/offered';
import { runCall, settledCall, startCard, type CallContext } from './loop/tool-calls';
import { qualifiedNames } from './tools';

export interface AppCallDeps {
  registry: PluginRegistry;
  messages: LiveMessages;
  approvals: Approvals;
  audit: AuditLog;
  /** What a call in this conversation needs (approvals, what is allowed here), as a model turn has it. */
  callContext(conversationId: string, turnId: string): Omit<CallContext, 'stopped' | 'track'>;
  turnRunning(conversationId: string, turnId: string, running: boolean): void;
}

export class AppCalls {
  /** Calls that asked the person, by turn id: what Stop stops. */
  private readonly running = new Map<string, { conversationId: string; stop(reason: string): void }>();

  constructor(private readonly d: AppCallDeps) {}

  /** Runs `tool` for the App shown by message `app` of the conversation; the result is the App's. */
  async call(
    conversationId: string,
    app: ChatMessage,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<Outcome<{ result: AppToolResult }>> {
    const { registry } = this.d;
    const plugin = app.pluginId;
    if (app.role !== 'plugin' || !app.app || !plugin || app.call?.fromApp)
      return failure('not_found', 'that message shows no App');
    if (registry.record(plugin)?.spec?.dialect !== 'mcp')
      return failure('not_found', `${plugin} is not an MCP server: it has no Apps`);
    // Its own server's tools only: an App never reaches another plugin.
    const spec = registry.tools(plugin).find((t) => t.name === tool);
    if (!spec) return failure('tool_not_exposed', `${plugin} offers no tool "${tool}" to its App`);
    if (!visibleToApp(spec.ui))
      return failure('tool_not_exposed', `${plugin}:${tool} is for the model only: its App may not call it`);
    // Checked before anyone is asked, as the host checks a call (a schema without properties says nothing).
    const props = spec.parameters.properties;
    const bad =
      props && typeof props === 'object' && Object.keys(props).length > 0
        ? validateArguments(tool, spec.parameters, args)
        : undefined;
    if (bad) return bad;
    const turnId = randomUUID();
    let stopped = false;
    const handles = new Set<CallHandle>();
    const ctx: CallContext = {
      ...this.d.callContext(conversationId, turnId),
      stopped: () => stopped,
      track: (h) => {
        handles.add(h);
        if (stopped) h.cancel('stopped by the user');
        return () => handles.delete(h);
      },
    };
    const target: Offered = {
      qualifiedName: qualifiedNames([{ plugin, tool }]).values().next().value as string,
      plugin,
      tool,
      description: spec.description,
      parameters: spec.parameters,
    };
    const early = settledCall(ctx, target, args);
    if (early) return this.unasked(ctx, app, target, args, early.state === 'allowed', early.by ?? 'policy');

    const step: StepCall = { toolCallId: `app-${randomUUID()}`, toolName: target.qualifiedName, input: args };
    this.running.set(turnId, {
      conversationId,
      stop: (reason) => {
        stopped = true;
        this.d.approvals.cancel({ turnId });
        for (const h of handles) h.cancel(reason);
      },
    });
    this.d.turnRunning(conversationId, turnId, true);
    try {
      const { live } = startCard(ctx, step, [target], {
        call: { id: step.toolCallId, name: step.toolName, approval: { state: 'queued' }, fromApp: app.id },
      });
      await runCall(ctx, step, live, target);
      const m = live.message;
      if (m.call?.approval.state === 'denied')
        return failure('cancelled', stopped ? 'stopped before it was decided' : 'the person denied this call');
      if (m.failure) return resultOfFailure(m.failure);
      if (m.status === 'cancelled') return failure('cancelled', 'the call was stopped');
      return { ok: true, result: m.app?.result ?? textResult(m.text || resultText(m.result)) };
    } finally {
      this.running.delete(turnId);
      this.d.turnRunning(conversationId, turnId, false);
    }
  }

  /** A call its policy or this conversation's allowance decides: run (or refused) with no card. */
  private async unasked(
    ctx: CallContext,
    app: ChatMessage,
    target: Offered,
    args: Record<string, unknown>,
    allowed: boolean,
    by: string,
  ): Promise<Outcome<{ result: AppToolResult }>> {
    const names = Object.keys(args).join(', ');
    this.d.audit.append({
      action: 'app-call',
      plugin: target.plugin,
      tool: target.tool,
      ok: allowed,
      detail: `${allowed ? 'allowed' : 'denied'} by ${by}; asked by its App (message ${app.id})${names ? `; arguments: ${names}` : ''}`,
    });
    if (!allowed)
      return failure('cancelled', `${target.plugin}:${target.tool} may not be called here (its policy is deny)`);
    let ended = false;
    const end = await new Promise<Exclude<CallEvent, { type: 'stream' }>>((resolve) => {
      // A refused call ends before `call` returns: nothing is tracked for it then.
      const handle = this.d.registry.call(target.plugin, target.tool, args, {
        context: ctx.context,
        owner: ctx.conversationId,
        onEvent: (e) => {
          if (e.type === 'stream') return;
          ended = true;
          resolve(e);
        },
      });
      if (!ended) {
        const untrack = ctx.track(handle);
        void handle.done.finally(untrack);
      }
    });
    if (end.type === 'error') return resultOfFailure(end.failure);
    return { ok: true, result: end.app?.result ?? textResult(resultText(end.data)) };
  }

  /** Stops an App's call that waits for the person or runs; false when `turnId` is not one. */
  stop(turnId: string, reason: string): boolean {
    const r = this.running.get(turnId);
    r?.stop(reason);
    return r !== undefined;
  }

  stopConversation(conversationId: string, reason: string): void {
    for (const r of this.running.values()) if (r.conversationId === conversationId) r.stop(reason);
  }

  stopAll(reason: string): void {
    for (const r of this.running.values()) r.stop(reason);
  }
}

function textResult(text: string): AppToolResult {
  return { content: [{ type: 'text', text }] };
}

/** A tool's own error is a result the App reads (`isError`); anything else fails its request. */
function resultOfFailure(f: Failure): Outcome<{ result: AppToolResult }> {
  const data = f.details?.data;
  if (
    f.code === 'plugin_error' &&
    typeof data === 'object' &&
    data !== null &&
    Array.isArray((data as AppToolResult).content)
  )
    return { ok: true, result: data as AppToolResult };
  return f;
}
