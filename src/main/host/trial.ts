/**
 * Trying a package before it is installed: launch it from its staging folder and shake hands,
 * as `plugboard check` does (check.ts), then stop it. The person sees before confirming whether
 * the plugin starts here at all, with its tool count and handshake time, or the failure code and
 * message that stopped it.
 *
 * Nothing of the package runs before the person confirms unless it is sandboxed, and then with
 * nothing granted (bindings.ts): where plugins run unsandboxed (macOS, Windows, no bubblewrap)
 * the trial is skipped and says why.
 *
 * The trial is bounded: the handshake gets at most the trial's deadline (a first-run launcher
 * such as `npx -y` is cut short and told so), and the process is stopped on every path, by the
 * instance's own stop sequence on success and by the launch's on failure, so nothing of it
 * outlives the preview.
 */
import type { Failure } from '../../shared/failures';
import type { PluginSpec, ToolSpec } from '../../shared/plugin';
import type { InstallTrialView } from '../../shared/views';
import { DIALECT_FACTORIES } from './dialects';
import type { LaunchPlan } from './process/plan';
import type { OAuthRecord, TokenVault } from './remote/oauth';
import { Instance } from './supervisor/instance';

/** Long enough for a Python or Node plugin on a busy machine, short enough to wait for in a dialog. */
export const DEFAULT_TRIAL_MS = 10_000;

/** What the failure's last stderr lines may add to a trial's answer. */
const STDERR_LINES = 8;

export interface TrialPlan {
  /** The plan of the launch, or why there can be none (a required setting without a value…). */
  plan: LaunchPlan | Failure;
  allowedCapabilities: readonly string[];
  /** The folders granted by path, where the person chose some before trying it again. */
  folders?: number;
}

/** The command a trial runs (or would run), for the preview: the plan's, else the manifest's. */
export function trialCommand(spec: PluginSpec, plan: LaunchPlan | Failure): string[] {
  if (!plan.ok) return spec.remote ? [spec.remote.url] : spec.command;
  if (plan.remote) return [plan.remote.url];
  // A sandboxed plan's command is bwrap's, with the plugin's own after `--` (sandbox.ts): the
  // person wants to see the latter.
  const cmd = plan.displayCommand;
  const inner = plan.sandbox?.active ? cmd.indexOf('--') : -1;
  return inner >= 0 ? cmd.slice(inner + 1) : cmd;
}

export async function tryLaunch(
  spec: PluginSpec,
  t: TrialPlan,
  deadlineMs = DEFAULT_TRIAL_MS,
  /** Filled with the tools the plugin announced at its handshake, when it shook hands (an update's diff). */
  seen?: { tools?: ToolSpec[] },
): Promise<InstallTrialView> {
  const { plan } = t;
  if (!plan.ok) {
    if (plan.code === 'settings_missing')
      return {
        status: 'skipped',
        message: `Not tried: ${plan.message}. Give them values and try it again, or set them after installing, in the plugin's settings.`,
      };
    return failed(plan);
  }
  // A remote server's trial would send the package's requests, and its headers, to its URL before
  // the person has granted anything: it is contacted only once installed and granted `net`.
  if (plan.remote)
    return {
      status: 'skipped',
      message: `Not tried: a remote server is contacted only once you install it and grant it the network (net); it would be reached at ${plan.remote.url}.`,
    };
  if (plan.sandbox?.active !== true) {
    const why = plan.sandbox?.active === false ? ` (${plan.sandbox.reason})` : '';
    return {
      status: 'skipped',
      message: `Not tried: plugins run unsandboxed here${why}, and nothing of a package runs before you install it.`,
    };
  }
  const wanted = plan.handshakeMs ?? spec.timeouts.handshakeMs;
  const handshakeMs = Math.min(wanted, deadlineMs);
  const started = performance.now();
  const inst = await launchOnce({
    spec: { ...spec, timeouts: { ...spec.timeouts, handshakeMs } },
    plan: { ...withNoSignIn(plan), handshakeMs },
    allowedCapabilities: t.allowedCapabilities,
  });
  if (!(inst instanceof Instance) && inst.code === 'sign_in_required')
    return {
      status: 'skipped',
      message: `Not tried: the server asks you to sign in. Sign in after installing, from the plugin's panel or with \`plugboard plugins signin ${spec.id}\`.`,
    };
  if (!(inst instanceof Instance)) {
    // Launch failed: Instance.launch has stopped what it started.
    // Cut short by the trial's deadline, not the plugin's own: say so, it may do better installed.
    if (handshakeMs < wanted && performance.now() - started >= handshakeMs) {
      return failed({
        ...inst,
        message: `${inst.message} (the trial waits ${Math.round(deadlineMs / 1000)} s; installed, it gets ${Math.round(wanted / 1000)} s)`,
      });
    }
    // Tried with nothing granted: a plugin that needs a grant to start may do better installed.
    return failed(plan.remote ? inst : { ...inst, message: `${inst.message} (${triedWith(t)})` });
  }
  const ms = Math.round(performance.now() - started);
  const tools = inst.handshake?.tools?.length ?? spec.tools.length;
  if (seen && inst.handshake?.tools) seen.tools = inst.handshake.tools;
  try {
    await inst.stop();
  } finally {
    inst.dispose();
  }
  return { status: 'ok', handshakeMs: ms, tools, ...(inst.handshake?.name ? { server: inst.handshake.name } : {}) };
}

/** What a failed trial was granted, said after its failure. */
function triedWith(t: TrialPlan): string {
  const granted = [...t.allowedCapabilities, ...(t.folders ? [`${t.folders} folder${t.folders > 1 ? 's' : ''}`] : [])];
  if (granted.length === 0) return 'tried in the sandbox with nothing granted: no network, none of your folders';
  return `tried in the sandbox with what you chose: ${granted.join(', ')}`;
}

/**
 * A remote server with no credentials of its own in its headers, tried as one that may want an
 * OAuth sign-in: with nothing stored, so its 401 reads as "sign in first" and nothing is kept.
 */
function withNoSignIn(plan: LaunchPlan): LaunchPlan {
  if (!plan.remote || plan.remote.oauth) return plan;
  if (Object.keys(plan.remote.headers).some((h) => h.toLowerCase() === 'authorization')) return plan;
  let kept: OAuthRecord | undefined;
  const vault: TokenVault = { read: async () => kept, write: async (r) => void (kept = r) };
  return { ...plan, remote: { ...plan.remote, oauth: { vault } } };
}

/**
 * One instance of a plugin outside supervision (a trial, `plugboard check`): launched and
 * handshaken, with no restarts, no watchdog and nobody listening to its logs but `diagnostic`.
 * The caller stops and disposes it; a failed launch has already stopped what it started.
 */
export function launchOnce(o: {
  spec: PluginSpec;
  plan: LaunchPlan;
  allowedCapabilities: readonly string[];
  diagnostic?: (level: string, message: string) => void;
}): Promise<Instance | Failure> {
  return Instance.launch({
    spec: o.spec,
    plan: o.plan,
    dialect: DIALECT_FACTORIES[o.spec.dialect],
    allowedCapabilities: o.allowedCapabilities,
    hooks: { diagnostic: o.diagnostic ?? (() => {}), pluginLog: () => {}, stderr: () => {}, toolsChanged: () => {} },
  });
}

function failed(f: Failure): InstallTrialView {
  return {
    status: 'failed',
    code: f.code,
    message: f.message,
    stderrTail: (f.details?.stderrTail ?? []).slice(-STDERR_LINES),
  };
}
