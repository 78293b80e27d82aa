/**
 * Another app's `tools/call`, from the name it called to the result it gets: the name resolved
 * (or why it cannot be called), the arguments checked against the tool's schema before anyone is
 * asked, the decision (approval.ts), an audit line naming the decision and the calling app, and
 * the call itself through the same registry as the app's (exposure, grants, the sandbox, limits,
 * deadlines), with no conversation and no passthrough session, cancelled when the app cancels.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { validateArguments, type PluginRegistry } from '../plugins';
import { decide, type Caller, type Verdict } from './approval';
import { CallResult, errorResult, type Progress } from './results';
import { resolveTool } from './tool-list';

export interface CallContext {
  registry: PluginRegistry;
  caller: Caller;
  /** How the app is connected, for the audit line: `stdio`, or `http` with its session. */
  via: string;
  /** Who holds the call in the host (the MCP session): never a conversation. */
  owner: string;
}

export interface CallExtras {
  signal: AbortSignal;
  /** Where stream chunks go, when the app asked for progress. */
  progress?: (p: Progress) => void;
}

export async function callTool(
  ctx: CallContext,
  name: string,
  args: Record<string, unknown>,
  extras: CallExtras,
): Promise<CallToolResult> {
  const { registry } = ctx;
  const target = resolveTool(registry, name);
  if ('ok' in target) {
    audit(ctx, { plugin: '?', tool: name }, args, false, `refused: ${target.message}`);
    return errorResult(target);
  }
  const pair = { plugin: target.plugin, tool: target.tool };
  const bad = validateArguments(`${pair.plugin}:${pair.tool}`, target.parameters, args);
  if (bad) {
    audit(ctx, pair, args, false, `refused: ${bad.message}`);
    return errorResult(bad);
  }
  const verdict = await decide(registry, ctx.caller, pair, args, extras.signal);
  audit(ctx, pair, args, verdict.allowed, describe(verdict));
  if (!verdict.allowed) return errorResult(verdict.failure);
  const result = new CallResult(registry.record(pair.plugin)?.spec?.dialect ?? 'jsonrpc', extras.progress);
  const handle = registry.call(pair.plugin, pair.tool, args, {
    signal: extras.signal,
    context: [],
    owner: ctx.owner,
    allowPassthrough: false,
    onEvent: result.onEvent,
  });
  await handle.done;
  return result.result();
}

function describe(v: Verdict): string {
  return v.allowed
    ? `allowed by ${v.by}`
    : `${v.failure.code === 'denied' ? 'denied' : 'refused'} by ${v.by}: ${v.failure.message}`;
}

/** Who called what, who decided, through which app; argument names only, never their values. */
function audit(
  ctx: CallContext,
  pair: { plugin: string; tool: string },
  args: Record<string, unknown>,
  ok: boolean,
  detail: string,
): void {
  const names = Object.keys(args).join(', ');
  ctx.registry.audit.append({
    action: 'mcp-call',
    plugin: pair.plugin,
    tool: pair.tool,
    ok,
    detail: `${detail}${names ? `; arguments: ${names}` : ''}`,
    client: `${ctx.caller.client} (MCP over ${ctx.via})`,
  });
}
