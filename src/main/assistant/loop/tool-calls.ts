/**
 * A model's call to a tool, from its card to its result: the decision (the tool's policy, what the
 * person allowed for this conversation, a flag, or the person's answer on the card, one prompt at
 * a time), the call itself through the registry (its output streaming into the card, its deadlines
 * and Stop), and an audit line for the call and who decided. A call the SDK refused (a tool not
 * offered, arguments that do not fit) becomes a card that says so; nothing runs for it.
 *
 * Approvals (call-approval.ts) are bound to the tool's definition (plugins/registry/definitions.ts):
 * "Allow for this conversation" is kept with the definition's hash, and a changed tool asks with
 * its diff on the card. A call whose arguments carry text from another plugin's result asks
 * whatever its policy (carried.ts), the source named on the card; only a deny policy or a flag
 * answers it unasked.
 */
import { randomUUID } from 'node:crypto';
import { chunkText } from '../../../shared/chunks';
import type { ApprovalState, ToolCallInfo } from '../../../shared/assistant';
import type { ChatMessage } from '../../../shared/contract';
import { failure, type Failure } from '../../../shared/failures';
import { appCardOf } from '../app-card';
import type { LiveMessage } from '../live-messages';
import { completion } from '../plugin-turns';
import { cutForModel } from './history';
import { boundTo, decide, settled, showing } from './call-approval';
import type { CallContext } from './call-context';
import { notOffered } from './not-offered';
import type { Offered } from './offered';
import type { StepCall } from './model-step';

export type { CallContext } from './call-context';
export { settledCall } from './call-approval';

/** The card a call starts as: decided already where no one needs asking, else queued to ask. */
export function startCard(
  ctx: CallContext,
  call: StepCall,
  offered: readonly Offered[],
  extra?: Partial<ChatMessage>,
): { live: LiveMessage; target: Offered | undefined; refused?: Failure } {
  const target = call.invalid ? undefined : offered.find((o) => o.qualifiedName === call.toolName);
  const bound = target ? boundTo(ctx, target, call.input) : undefined;
  const approval: ApprovalState =
    !target || !bound ? { state: 'denied', by: 'policy' } : (settled(ctx, bound) ?? { state: 'queued' });
  const [guessed, tool] = target ? [target.plugin, target.tool] : guessPair(call.toolName);
  const plugin = guessed && ctx.registry.record(guessed) ? guessed : undefined;
  const message: ChatMessage = {
    id: randomUUID(),
    role: 'plugin',
    createdAt: Date.now(),
    text: '',
    turnId: ctx.turnId,
    status: 'streaming',
    ...(plugin ? { pluginId: plugin } : {}),
    tool: tool ?? call.toolName,
    args: isRecord(call.input) ? call.input : {},
    call: {
      id: call.toolCallId,
      name: call.toolName,
      approval,
      ...(bound?.hints ? { hints: bound.hints } : {}),
      ...(bound?.change ? { change: bound.change } : {}),
      ...(bound?.carried ? { carried: bound.carried } : {}),
    },
    ...(target ? appCardOf(ctx.registry, target.plugin, target.tool) : {}),
    ...extra,
  };
  const live = ctx.messages.start(ctx.conversationId, message);
  if (bound) showing(live, bound.hash);
  const refused =
    target || call.invalid?.kind === 'bad-input'
      ? undefined
      : notOffered(ctx.registry, call.toolName, plugin, tool, offered);
  return { live, target, ...(refused ? { refused } : {}) };
}

/** Decides, runs and finishes one call's card. */
export async function runCall(
  ctx: CallContext,
  call: StepCall,
  card: LiveMessage,
  target: Offered | undefined,
  refused?: Failure,
): Promise<void> {
  const m = card.message;
  const info = m.call as ToolCallInfo;
  if (call.invalid || !target) {
    const why =
      call.invalid?.kind === 'bad-input'
        ? failure(
            'invalid_arguments',
            `the model's arguments for ${call.toolName} were not valid: ${call.invalid.message}`,
            { data: call.input },
          )
        : (refused ??
          failure(
            'tool_not_exposed',
            `the model asked for ${call.toolName}, which it is not offered (switched off, or no such tool); it was told so, and nothing ran`,
          ));
    audit(ctx, m, false, `refused: ${why.message}`);
    return ctx.messages.finish(card, {
      status: 'error',
      failure: why,
      call: { ...info, approval: { state: 'denied', by: 'policy' } },
    });
  }
  const decided = await decide(ctx, card, target);
  const approval: ApprovalState = decided.approval;
  if (decided.cancelled) {
    return ctx.messages.finish(card, {
      status: 'cancelled',
      failure: failure('cancelled', 'stopped before the call was decided'),
      call: { ...info, approval: { state: 'denied', by: 'policy' } },
    });
  }
  const why = [
    info.change ? `its definition ${info.change.kind === 'new' ? 'is new' : 'changed'}` : '',
    info.carried
      ? `held: its arguments carry ${info.carried.chars} characters of ${info.carried.plugin}:${info.carried.tool}'s result`
      : '',
  ].filter(Boolean);
  audit(
    ctx,
    m,
    approval.state === 'allowed',
    `${approval.state === 'allowed' ? 'allowed' : 'denied'} by ${approval.by}${approval.decision ? ` (${approval.decision})` : ''}${why.length ? `; ${why.join('; ')}` : ''}`,
  );
  // A denial is not a failure: the card says who denied it, and the model is told.
  if (approval.state === 'denied')
    return ctx.messages.finish(card, { status: 'cancelled', call: { ...info, approval } });
  const args = decided.args ?? m.args ?? {};
  // The card shows the decision and the arguments that run, where they changed.
  if (decided.args || approval !== info.approval) ctx.messages.update(card, { args, call: { ...info, approval } });
  const started = Date.now();
  await new Promise<void>((resolve) => {
    const handle = ctx.registry.call(target.plugin, target.tool, args, {
      context: ctx.context,
      owner: ctx.conversationId,
      onEvent: (e) => {
        if (e.type === 'stream') return ctx.messages.append(card, chunkText(e.data));
        const { appended, ...change } = completion(card, e);
        if (appended) ctx.messages.append(card, appended);
        const cut = cutForModel({ ...card.message, ...change, text: card.body.toString() });
        ctx.messages.finish(card, {
          ...change,
          call: { ...info, approval, durationMs: Date.now() - started, ...(cut > 0 ? { cutForModel: cut } : {}) },
        });
        untrack();
        resolve();
      },
    });
    const untrack = ctx.track(handle);
  });
}

/** Who asked, what was decided and by whom; argument names only, never their values. */
function audit(ctx: CallContext, m: ChatMessage, ok: boolean, detail: string): void {
  const argNames = Object.keys(m.args ?? {}).join(', ');
  ctx.audit.append({
    action: m.call?.fromApp ? 'app-call' : 'model-call',
    plugin: m.pluginId ?? '?',
    ok,
    tool: m.tool ?? '?',
    detail: `${detail}${argNames ? `; arguments: ${argNames}` : ''}`,
  });
}

/** `plugin__tool` read back, for a name the model invented or a tool switched off since. */
function guessPair(name: string): [string | undefined, string | undefined] {
  const at = name.indexOf('__');
  return at > 0 ? [name.slice(0, at).replace(/_/g, '-'), name.slice(at + 2)] : [undefined, undefined];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
