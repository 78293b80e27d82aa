/**
 * Whether a model's call may run (loop/tool-calls.ts makes and runs its card): what its decision
 * is bound to (the tool's definition by hash, how it changed since the person reviewed it, text
 * the arguments carry from another plugin's result), the decision that needs no one asked, and
 * the person's answer on the card, asked again when the definition changed while they decided.
 */
import type { ApprovalState, CarriedText, ToolCallInfo } from '../../../shared/assistant';
import type { PluginRegistry } from '../../plugins';
import { validateArguments } from '../../plugins';
import type { LiveMessage } from '../live-messages';
import { carriedInto } from './carried';
import type { CallContext } from './call-context';
import type { Offered } from './offered';

/** The hash of the definition each card was made for: what an answer given on it applies to. */
const shownHash = new WeakMap<LiveMessage, string | undefined>();

/** Notes the hash of the definition a card shows (startCard). */
export function showing(card: LiveMessage, hash: string | undefined): void {
  shownHash.set(card, hash);
}

/** What a call's decision is bound to: the tool's definition now, how it changed, what the arguments carry. */
export interface Bound {
  policy: ReturnType<PluginRegistry['decisions']['toolPolicy']>;
  /** `plugin:tool#hash`: the key an allowance for this conversation is kept under. */
  key: string;
  hash: string | undefined;
  hints?: ToolCallInfo['hints'];
  change?: ToolCallInfo['change'];
  carried?: CarriedText;
}

export function boundTo(ctx: CallContext, target: Offered, input: unknown): Bound {
  const { registry } = ctx;
  const policy = registry.decisions.toolPolicy(target.plugin, target.tool);
  const hash = registry.definitions.hash(target.plugin, target.tool);
  const annotations = registry.tools(target.plugin).find((t) => t.name === target.tool)?.annotations;
  const change = policy.changed ? registry.definitions.change(target.plugin, target.tool) : undefined;
  // A plugin whose tools were never recorded (it announced none yet) gets them recorded now.
  if (!policy.changed) void registry.definitions.recordFirst(target.plugin);
  // A deny stands whatever the arguments hold: nothing to look for.
  const found = policy.policy === 'deny' ? null : carriedInto(input, target.plugin, ctx.stored);
  return {
    policy,
    key: `${target.plugin}:${target.tool}#${hash ?? ''}`,
    hash,
    ...(annotations && Object.keys(annotations).length ? { hints: annotations } : {}),
    ...(change ? { change } : {}),
    ...(found
      ? {
          carried: {
            plugin: found.plugin,
            pluginName: registry.record(found.plugin)?.spec?.name ?? found.plugin,
            tool: found.tool,
            chars: found.chars,
            excerpt: found.excerpt,
          },
        }
      : {}),
  };
}

/** An App's call decided without asking where a model's would be (app-calls.ts): the same rules. */
export function settledCall(ctx: CallContext, target: Offered, input: unknown): ApprovalState | null {
  return settled(ctx, boundTo(ctx, target, input));
}

/**
 * The decision that needs no one asked: the tool's policy (a changed tool's is ask: decisions.ts),
 * this conversation's allowance for this very definition, a flag. A call carrying another
 * plugin's result is answered only by a deny policy or a flag.
 */
export function settled(ctx: CallContext, bound: Bound): ApprovalState | null {
  const { policy } = bound.policy;
  if (policy === 'deny') return { state: 'denied', by: 'policy' };
  if (!bound.carried) {
    if (policy === 'allow') return { state: 'allowed', by: 'policy' };
    if (ctx.allowedHere().includes(bound.key)) return { state: 'allowed', by: 'person', decision: 'conversation' };
  }
  if (ctx.flag) return { state: ctx.flag === 'all' ? 'allowed' : 'denied', by: 'flag' };
  return null;
}

export async function decide(
  ctx: CallContext,
  card: LiveMessage,
  target: Offered,
): Promise<{ approval: ApprovalState; args?: Record<string, unknown>; cancelled?: true }> {
  if ((card.message.call as ToolCallInfo).approval.state !== 'queued')
    return { approval: (card.message.call as ToolCallInfo).approval };
  let hash: string | undefined;
  let answer: Awaited<ReturnType<CallContext['approvals']['ask']>>;
  for (;;) {
    const info = card.message.call as ToolCallInfo;
    // The definition the card shows: what an allowance given on it is bound to.
    hash = shownHash.get(card);
    answer = await ctx.approvals.ask(
      info.id,
      {
        conversationId: ctx.conversationId,
        turnId: ctx.turnId,
        check: (args) => validateArguments(target.tool, target.parameters, args)?.message,
      },
      () => ctx.messages.update(card, { call: { ...info, approval: { state: 'pending' } } }),
      ctx.stopped,
    );
    if (answer.decision === 'cancelled' || answer.decision === 'deny') break;
    // The tool's definition changed while the person decided (a list_changed, an update): their
    // answer was about the card they saw. The card is shown again with what changed, and asks
    // again; nothing is allowed or recorded for a definition nobody saw (red team A14).
    if (ctx.registry.definitions.hash(target.plugin, target.tool) === hash) break;
    const again = boundTo(ctx, target, card.message.args);
    shownHash.set(card, again.hash);
    const { hints: _h, change: _c, ...rest } = info;
    ctx.messages.update(card, {
      call: {
        ...rest,
        approval: { state: 'queued' },
        ...(again.hints ? { hints: again.hints } : {}),
        ...(again.change ? { change: again.change } : {}),
      },
    });
  }
  if (answer.decision === 'cancelled') return { approval: { state: 'denied', by: 'policy' }, cancelled: true };
  if (answer.decision === 'deny') return { approval: { state: 'denied', by: 'person', decision: 'deny' } };
  if (answer.decision === 'conversation') ctx.allowHere(`${target.plugin}:${target.tool}#${hash ?? ''}`);
  if (answer.decision === 'always')
    await ctx.registry.decisions.setToolPolicy(target.plugin, target.tool, 'allow', hash);
  return {
    approval: { state: 'allowed', by: 'person', decision: answer.decision },
    ...(answer.args ? { args: answer.args } : {}),
  };
}
