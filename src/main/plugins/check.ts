/**
 * What a plugin author wants to know before publishing: does the manifest read, does the plugin
 * launch and shake hands, do the tools it announces match the ones it declares, does it answer
 * pings, does it exit cleanly on shutdown, and is nothing of it left running afterwards.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requestedCapabilities } from '../../shared/capabilities';
import { describeFailure, isFailure } from '../../shared/failures';
import { median } from '../../shared/stats';
import type { PluginSpec } from '../../shared/plugin';
import type { FolderGrant } from '../../shared/capabilities';
import {
  coerceSettings,
  launchOnce,
  planLaunchWithShellPath,
  planRemote,
  pluginEnvironment,
  type SettingValue,
} from '../host';
import { compareTools, type CheckItem } from './check-tools';
import { describeManifestErrors, loadManifest } from './manifests';

/**
 * How long the plugin's process group may take to empty after the plugin exits before the check
 * calls what is left an orphan: children commonly need a moment to see their parent go (1.4 s was
 * seen from a real plugin's child), and only the ones still there after this are a fault.
 */
export const ORPHAN_GRACE_MS = 3000;

export type { CheckItem, CheckStatus } from './check-tools';

export interface CheckOptions {
  parentEnv?: NodeJS.ProcessEnv;
  settings?: Record<string, SettingValue>;
  /**
   * Values as typed (`--set KEY=VALUE`), checked against the plugin's settings as `plugins config`
   * checks them, then laid over `settings`; `null` unsets.
   */
  set?: Record<string, unknown>;
  allowedCapabilities?: readonly string[];
  /** Pings to send; the median round trip is reported. */
  pings?: number;
  /**
   * Run the plugin in the sandbox it gets when installed (where one works here), granted what it
   * is allowed, with the Plugboard data directory `hiddenRoot` out of its sight.
   */
  sandbox?: { hiddenRoot: string; extraReadOnly?: string[]; folders?: FolderGrant[] };
  /**
   * The plugin's own data folder (an installed plugin's, which keeps what its first run made):
   * used instead of a scratch folder, and kept. Default: a scratch folder, removed afterwards.
   */
  dataDir?: string;
}

export async function checkPlugin(
  target: string,
  opts: CheckOptions = {},
): Promise<{ spec?: PluginSpec; items: CheckItem[] }> {
  const items: CheckItem[] = [];
  const m = loadManifest(target);
  if (!m.ok) {
    items.push({ name: 'manifest', status: 'fail', detail: describeManifestErrors(m) });
    return { items };
  }
  const spec = m.spec;
  items.push({
    name: 'manifest',
    status: m.warnings.length > 0 ? 'warn' : 'pass',
    detail: [
      `${spec.manifestPath} (${spec.manifestFormat}): ${spec.id} ${spec.version}, ${spec.dialect} over ${spec.framing}`,
      ...m.warnings,
    ].join('\n'),
  });

  // An installed plugin's own data folder, or a scratch folder that is removed afterwards.
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const scratch = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), `plugboard-check-${spec.id}-`));
  try {
    return await runChecks(spec, items, scratch, opts);
  } finally {
    if (!opts.dataDir) rmSync(scratch, { recursive: true, force: true });
  }
}

async function runChecks(
  spec: PluginSpec,
  items: CheckItem[],
  scratch: string,
  opts: CheckOptions,
): Promise<{ spec?: PluginSpec; items: CheckItem[] }> {
  const hostEnv = pluginEnvironment(spec, scratch);
  const settings = { ...(opts.settings ?? {}) };
  if (opts.set) {
    const c = coerceSettings(spec.id, spec.settings, opts.set);
    if (!c.ok) {
      items.push({ name: 'launch', status: 'fail', detail: `--set ${c.message}` });
      return { spec, items };
    }
    for (const [k, v] of Object.entries(c.values)) {
      if (v === null) delete settings[k];
      else settings[k] = v;
    }
  }
  const sandbox = opts.sandbox && {
    ...opts.sandbox,
    grants: opts.allowedCapabilities ?? requestedCapabilities(spec),
    dataDir: scratch,
  };
  const plan = spec.remote
    ? planRemote({ ...spec, remote: spec.remote }, settings, (opts.parentEnv ?? process.env).HOME)
    : await planLaunchWithShellPath({
        spec,
        settings,
        parentEnv: opts.parentEnv ?? process.env,
        hostEnv,
        ...(sandbox ? { sandbox } : {}),
      });
  const launched = !plan.ok
    ? ''
    : plan.remote
      ? `a remote MCP server at ${plan.remote.url} (Streamable HTTP): nothing runs here`
      : `${plan.displayCommand.join(' ')}${plan.note ? ` (${plan.note})` : ''}${plan.sandbox?.active === false ? `\nnot sandboxed: ${plan.sandbox.reason}` : ''}`;
  if (!plan.ok) {
    items.push({ name: 'launch', status: 'fail', detail: describeFailure(plan) });
    return { spec, items };
  }
  // A plugin that reaches for files outside its folder fails in the sandbox as it will once installed.
  const sandboxHint = plan.sandbox?.active
    ? '\nit ran in the sandbox, which shows it only its own folder, its data folder and the system folders (and no network unless granted)'
    : '';
  const logs: string[] = [];
  const started = Date.now();
  // A first-run launcher (npx -y, uvx…) named through a placeholder gets its allowance here.
  const timeouts = plan.handshakeMs ? { ...spec.timeouts, handshakeMs: plan.handshakeMs } : spec.timeouts;
  const inst = await launchOnce({
    spec: { ...spec, timeouts },
    plan,
    allowedCapabilities: opts.allowedCapabilities ?? spec.capabilities,
    diagnostic: (level, msg) => logs.push(`${level}: ${msg}`),
  });
  if (isFailure(inst)) {
    if (inst.code === 'launch_failed') {
      items.push({ name: 'launch', status: 'fail', detail: describeFailure(inst) + sandboxHint });
    } else {
      items.push({ name: 'launch', status: 'pass', detail: launched });
      items.push({ name: 'handshake', status: 'fail', detail: describeFailure(inst) + sandboxHint });
    }
    return { spec, items };
  }
  items.push({ name: 'launch', status: 'pass', detail: launched });
  const hs = inst.handshake;
  // A launcher that fetches its package on its first run (npx -y, uvx) spends that time before the
  // handshake: the figure is said to include it, and not taken for the plugin's own start.
  const cold = plan.note ? `, most of it ${plan.note}: installed, it runs from its folder without that` : '';
  items.push({
    name: 'handshake',
    status: 'pass',
    detail: `${spec.dialect === 'jsonrpc' && !spec.init ? 'no handshake in this protocol; process up' : 'answered'} in ${Date.now() - started} ms${cold}${hs?.name ? ` (${hs.name}${hs.version ? ` ${hs.version}` : ''})` : ''}`,
  });
  items.push(compareTools(spec, hs?.tools));

  if (spec.dialect === 'rterm-v1') {
    items.push({ name: 'ping', status: 'skip', detail: 'rterm.plugin.v1 runs one process per call: no pings' });
  } else {
    const rtts: number[] = [];
    const errors: string[] = [];
    let outcome = 'answered';
    for (let i = 0; i < (opts.pings ?? 3); i++) {
      const t0 = performance.now();
      const p = await inst.session.ping(spec.timeouts.pingTimeoutMs);
      if (p.type === 'answered') {
        rtts.push(performance.now() - t0);
        if (p.error) errors.push(p.error);
      } else {
        outcome = p.type;
        break;
      }
    }
    if (outcome !== 'answered') {
      items.push({
        name: 'ping',
        status: 'warn',
        detail: `no answer to ping within ${spec.timeouts.pingTimeoutMs} ms: Plugboard cannot tell when this plugin freezes while idle (answer ping, even with an error, to fix)`,
      });
    } else {
      const mid = median(rtts).toFixed(2);
      items.push({
        name: 'ping',
        status: 'pass',
        detail:
          errors.length > 0
            ? `answered with an error ("${errors[0]}"), which counts as alive; median ${mid} ms`
            : `answered ${rtts.length}/${rtts.length}, median ${mid} ms`,
      });
    }
  }
  for (const l of logs.filter((l) => l.startsWith('warn') || l.startsWith('error')))
    items.push({ name: 'handshake', status: 'warn', detail: l });

  // Instance.stop's sequence, with a grace for the plugin's children before they count as orphans.
  const grace = spec.timeouts.stopGraceMs;
  const stop = await inst.proc.stop({
    farewell: () => inst.session.farewell(),
    graceMs: grace,
    termGraceMs: spec.timeouts.termGraceMs,
    orphanGraceMs: ORPHAN_GRACE_MS,
  });
  inst.dispose();
  const code = stop.exit.code;
  if (spec.remote) {
    items.push({
      name: 'shutdown',
      status: 'pass',
      detail: `ended its session ${Math.round(stop.ms)} ms after being asked`,
    });
    items.push({ name: 'cleanup', status: 'pass', detail: 'a remote server: nothing of it runs here' });
    return { spec, items };
  }
  if (stop.stage === 'graceful' || stop.stage === 'already-exited') {
    // An rterm plugin closed after its handshake was never sent the request it waits for: it may
    // well exit with an error, which says nothing about how it ends a real call.
    const oneShot = spec.dialect === 'rterm-v1';
    items.push({
      name: 'shutdown',
      status: code === 0 || oneShot ? 'pass' : 'warn',
      detail: oneShot
        ? `exited ${stop.ms} ms after stdin closed on a handshake-only session${code === 0 ? '' : ` (code ${code}, not judged: it was sent no request)`}`
        : `exited${code === 0 ? '' : ` with code ${code}`} ${stop.ms} ms after ${spec.dialect === 'gassist-v2' || spec.dialect === 'jsonrpc' ? 'shutdown and ' : ''}stdin closing`,
    });
  } else if (stop.stage === 'terminated' && spec.dialect === 'mcp') {
    // MCP's stdio shutdown: close stdin, wait for the exit, then SIGTERM, then SIGKILL. A server
    // that ends on the SIGTERM is doing what the specification allows.
    items.push({
      name: 'shutdown',
      status: 'pass',
      detail: `still running ${grace} ms after stdin closed, and exited on SIGTERM, as MCP's stdio shutdown allows (exiting when stdin ends is quicker)`,
    });
  } else {
    items.push({
      name: 'shutdown',
      status: 'fail',
      detail:
        stop.stage === 'terminated'
          ? `still running ${grace} ms after shutdown and stdin closing: it needed SIGTERM. Exit when stdin ends.`
          : `ignored shutdown, stdin closing and SIGTERM: it needed SIGKILL. Exit when stdin ends.`,
    });
  }
  items.push(
    stop.orphans
      ? {
          name: 'cleanup',
          status: 'fail',
          detail: `processes the plugin started were still running ${ORPHAN_GRACE_MS} ms after it exited (Plugboard killed them); stop your children on exit`,
        }
      : { name: 'cleanup', status: 'pass', detail: 'nothing of the plugin is left running' },
  );
  return { spec, items };
}
