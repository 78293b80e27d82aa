/**
 * Whether another app's call may run: the tool's policy, as for a model in the app (allow, deny,
 * or ask). To ask, Plugboard uses every way it has to reach the person at once: a form in the
 * calling app (MCP elicitation, when the client declared it: "Allow once" or "Deny", with the
 * arguments shown) and the approval card of the Plugboard app open on the same data folder (the
 * approval channel). The first answer decides and the other is withdrawn. With neither, the call
 * is refused as needing approval: a call that asks never runs unanswered.
 */
import { randomUUID } from 'node:crypto';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ExternalDecision } from '../../shared/external-approvals';
import { failure, type Failure } from '../../shared/failures';
import { callNotes } from '../../shared/call-notes';
import { hiddenCounts, hiddenSummary, revealed } from '../../shared/visible-text';
import { reachApp } from '../assistant';
import type { PluginRegistry } from '../plugins';
import type { ToolPair } from './tool-list';

export interface Caller {
  /** The calling app in words, from its clientInfo: "Claude Desktop 0.10.2". */
  client: string;
  /** Shows the form in the calling app; absent when it declared no form elicitation. */
  elicit?(params: ElicitRequestFormParams, signal: AbortSignal): Promise<ElicitResult>;
}

export type Verdict = { allowed: true; by: string } | { allowed: false; by: string; failure: Failure };

/** Arguments shown in a form are cut here: a form is no place for a whole file. */
const SHOWN_ARGS_CHARS = 2000;

export async function decide(
  registry: PluginRegistry,
  caller: Caller,
  pair: ToolPair,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Verdict> {
  const { policy, changed } = registry.decisions.toolPolicy(pair.plugin, pair.tool);
  const name = `${pair.plugin}:${pair.tool}`;
  if (policy === 'allow') return { allowed: true, by: 'policy' };
  if (policy === 'deny')
    return {
      allowed: false,
      by: 'policy',
      failure: failure('denied', `${name} is set to Deny in Plugboard's approvals: nothing ran`),
    };
  const app = await reachApp(registry.paths.root);
  if (!caller.elicit && !app)
    return {
      allowed: false,
      by: 'policy',
      failure: failure(
        'approval_required',
        `${name} needs your approval, and there is no one to ask: ${caller.client} offers no forms (MCP elicitation) and no Plugboard app is open on ${registry.paths.root}. Open Plugboard to answer there, or set the tool to Allow in Plugboard; nothing ran`,
      ),
    };
  const answers = new AbortController();
  const stop = (): void => answers.abort(new Error('the call was cancelled'));
  signal.addEventListener('abort', stop, { once: true });
  const routes: Array<Promise<{ decision: ExternalDecision; by: string } | undefined>> = [];
  if (caller.elicit) {
    // What the app's card shows above its buttons: a changed definition as a diff, and what the
    // plugin says of the tool (red team A07: the form said neither).
    const hints = registry.tools(pair.plugin).find((t) => t.name === pair.tool)?.annotations;
    const change = changed ? registry.definitions.change(pair.plugin, pair.tool) : undefined;
    const notes = callNotes({
      plugin: pair.plugin,
      tool: pair.tool,
      ...(hints && Object.keys(hints).length ? { hints } : {}),
      ...(change ? { change } : {}),
    });
    const form = approvalForm(caller.client, name, args, notes);
    routes.push(
      caller
        .elicit(form, answers.signal)
        .then((r) => ({ decision: formDecision(r), by: `the person, in ${caller.client}` }))
        .catch(() => undefined),
    );
  }
  if (app) {
    const request = {
      id: randomUUID(),
      plugin: pair.plugin,
      tool: pair.tool,
      args,
      client: caller.client,
      at: Date.now(),
    };
    routes.push(app.ask(request, answers.signal).then((d) => d && { decision: d, by: 'the person, in Plugboard' }));
  }
  const first = await firstAnswer(routes);
  signal.removeEventListener('abort', stop);
  answers.abort(new Error(first ? `answered by ${first.by}` : 'nobody answered'));
  if (signal.aborted)
    return {
      allowed: false,
      by: 'caller',
      failure: failure('cancelled', 'the call was cancelled while it waited for approval'),
    };
  if (!first)
    return {
      allowed: false,
      by: 'policy',
      failure: failure(
        'approval_required',
        `${name} needs your approval, and no answer came (${caller.client}'s form failed and Plugboard closed): nothing ran`,
      ),
    };
  if (first.decision === 'deny')
    return {
      allowed: false,
      by: first.by,
      failure: failure('denied', `${name} was denied by ${first.by}: nothing ran`),
    };
  return { allowed: true, by: first.by };
}

/** The form: what runs, with which arguments, and a choice whose default is Deny. */
function approvalForm(
  client: string,
  name: string,
  args: Record<string, unknown>,
  notes: string[],
): ElicitRequestFormParams {
  let shown = JSON.stringify(args, null, 2);
  // What hides in them (bidi controls, tag characters, zero-width ones) is shown, as on an
  // approval card: the form is where the person decides (red team A08).
  const hidden = hiddenSummary(hiddenCounts(shown));
  if (shown.length > SHOWN_ARGS_CHARS)
    shown = `${shown.slice(0, SHOWN_ARGS_CHARS)}\n… (${shown.length - SHOWN_ARGS_CHARS} more characters)`;
  return {
    message: `${revealed(client)} wants to run ${revealed(name, { name: true })} through Plugboard, with these arguments:\n${revealed(shown)}\n${hidden ? `They hold ${hidden}, shown marked ⟦…⟧.\n` : ''}${notes.map((l) => `${l.trim()}\n`).join('')}Allow it this once?`,
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Your answer',
          oneOf: [
            { const: 'once', title: 'Allow once' },
            { const: 'deny', title: 'Deny' },
          ],
          default: 'deny',
        },
      },
      required: ['decision'],
    },
  };
}

/** Only an explicit "Allow once" allows: a declined or dismissed form denies. */
function formDecision(r: ElicitResult): ExternalDecision {
  return r.action === 'accept' && r.content?.decision === 'once' ? 'once' : 'deny';
}

/** The first answer of several ways of asking; undefined when every one ended without one. */
function firstAnswer<T>(routes: Array<Promise<T | undefined>>): Promise<T | undefined> {
  return new Promise((resolve) => {
    let left = routes.length;
    if (left === 0) resolve(undefined);
    for (const r of routes)
      void r.then((v) => {
        if (v !== undefined) resolve(v);
        else if (--left === 0) resolve(undefined);
      });
  });
}
