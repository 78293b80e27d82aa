/**
 * What the sandbox and its limits cost (issue 18 item 3, issue 17's "a sandboxed launch at most
 * 30 ms over an unsandboxed one"), measured in the same run against baselines:
 *   launch      plan → first answer of an echo plugin (bench/peers): unsandboxed; sandboxed
 *               without limits (no control group, no prlimit, no limit watch); sandboxed with the
 *               limits this machine holds (its control group or rlimits, and the watch). Targets:
 *               the sandbox at most 30 ms over unsandboxed, limits at most 30 ms over the sandbox.
 *   round trip  a tool call to the same server, sandboxed with and without limits: limits should
 *               change nothing measurable (target: within 10 %).
 * Every contender is started fresh in each round, in an order rotated every round; each keeps its best round
 * median, as the round trips in run.ts do, since the machine is shared.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PluginHost } from '../src/main/host/host';
import type { LaunchPlan } from '../src/main/host/process/plan';
import type { PluginSupervisor } from '../src/main/host/supervisor/supervisor';
import { sandboxSupport, type SandboxSupport } from '../src/main/host/process/sandbox-probe';
import { loadManifest } from '../src/main/plugins/manifests';
import type { PluginSpec } from '../src/shared/plugin';
import { median } from '../src/shared/stats';
import type { Report } from './lib/report';

type Mode = 'unsandboxed' | 'sandboxed' | 'limits';

async function echo(sup: PluginSupervisor, mode: Mode): Promise<void> {
  const o = await sup.call('echo', { text: 'hi' }).done;
  if (!o.ok) throw new Error(`${mode} echo: ${o.code} ${o.message}`);
}

/** The probe's answer without what holds limits: no control groups, no prlimit. */
function withoutLimits(s: Extract<SandboxSupport, { available: true }>): SandboxSupport {
  return { ...s, limits: undefined, helpers: undefined };
}

export async function sandboxBench(report: Report, root: string, quick: boolean): Promise<void> {
  const support = sandboxSupport();
  if (!support.available) {
    report.section(`Sandbox and limits: not measured (${support.reason})`);
    return;
  }
  const rounds = quick ? 3 : 7;
  const launches = quick ? 4 : 8;
  const calls = quick ? 200 : 500;
  report.section(
    `Sandboxed launch and limits (${support.limits?.enforcement ?? 'no'} limits here): best of ${rounds} rounds, p50 of ${launches} launches and ${calls} calls each`,
  );
  // The least a JSON-RPC plugin can be (bench/peers), which needs nothing outside its folder.
  const m = loadManifest(path.join(root, 'test', 'fixtures', 'planner-executor'));
  if (!m.ok) throw new Error(m.errors.join('\n'));
  const peers = path.join(root, 'bench', 'peers');
  const base: PluginSpec = {
    ...m.spec,
    dialect: 'jsonrpc',
    framing: 'ndjson',
    rpcFlavor: 'generic',
    dir: peers,
    cwd: peers,
    command: ['node', 'echo-jsonrpc.mjs'],
    tools: [],
    capabilities: [],
  };
  const host = new PluginHost();
  const data = mkdtempSync(path.join(os.tmpdir(), 'plugboard-bench-sandbox-'));
  let n = 0;

  /** One launch in a mode: plan → ready, in ms; the supervisor stays for the calls. */
  async function launch(mode: Mode): Promise<{ ms: number; sup: PluginSupervisor }> {
    const id = `bench-${mode}-${n++}`;
    const spec = { ...base, id };
    const t0 = performance.now();
    const sandbox =
      mode === 'unsandboxed'
        ? undefined
        : {
            grants: [],
            dataDir: path.join(data, id),
            hiddenRoot: path.join(data, 'hidden'),
            ...(mode === 'sandboxed'
              ? { support: withoutLimits(support as typeof support & { available: true }) }
              : {}),
          };
    let plan = await host.plan(spec, {}, {}, sandbox);
    if (!plan.ok) throw new Error(`${mode}: ${plan.message}`);
    // Without limits: nothing to hold them, and no watch of them.
    if (mode === 'sandboxed') plan = { ...plan, limits: undefined } as LaunchPlan;
    const sup = await host.add(spec, { binding: { plan, allowedCapabilities: [] } });
    const s = await sup.start();
    if (!s.ok) throw new Error(`${mode}: ${s.message}`);
    // Up once its process runs: its first answer says its program is running.
    await echo(sup, mode);
    return { ms: performance.now() - t0, sup };
  }

  const modes: Mode[] = ['unsandboxed', 'sandboxed', 'limits'];
  const bestLaunch = new Map<Mode, number>();
  const bestCall = new Map<Mode, number>();
  try {
    for (let r = 0; r < rounds; r++) {
      // Each mode in each place of the order as often as the others (rotated every round).
      for (const mode of [...modes.slice(r % 3), ...modes.slice(0, r % 3)]) {
        const times: number[] = [];
        for (let i = 0; i < launches; i++) {
          const { ms, sup } = await launch(mode);
          times.push(ms);
          if (i < launches - 1) await host.remove(sup.spec.id);
          else {
            const rt: number[] = [];
            for (let c = 0; c < calls + 50; c++) {
              const t0 = performance.now();
              await echo(sup, mode);
              if (c >= 50) rt.push((performance.now() - t0) * 1000);
            }
            await host.remove(sup.spec.id);
            bestCall.set(mode, Math.min(bestCall.get(mode) ?? Infinity, median(rt)));
          }
        }
        bestLaunch.set(mode, Math.min(bestLaunch.get(mode) ?? Infinity, median(times)));
      }
    }
  } finally {
    await host.shutdown();
    rmSync(data, { recursive: true, force: true });
  }
  const l = (mode: Mode): number => bestLaunch.get(mode)!;
  report.add({ name: 'launch → first answer, unsandboxed', value: l('unsandboxed'), unit: 'ms' });
  report.add({
    name: 'launch → first answer, sandboxed without limits',
    value: l('sandboxed'),
    unit: 'ms',
    baseline: { name: 'unsandboxed', value: l('unsandboxed') },
  });
  report.add({
    name: 'launch → first answer, sandboxed with limits',
    value: l('limits'),
    unit: 'ms',
    baseline: { name: 'without limits', value: l('sandboxed') },
  });
  report.add({
    name: 'the sandbox adds to a launch',
    value: l('sandboxed') - l('unsandboxed'),
    unit: 'ms',
    target: { maxValue: 30, text: '≤ 30 ms' },
  });
  report.add({
    name: 'limits add to a sandboxed launch',
    value: l('limits') - l('sandboxed'),
    unit: 'ms',
    target: { maxValue: 30, text: '≤ 30 ms' },
  });
  report.add({
    name: 'tool round trip, sandboxed without limits',
    value: bestCall.get('sandboxed')!,
    unit: 'us',
  });
  report.add({
    name: 'tool round trip, sandboxed with limits',
    value: bestCall.get('limits')!,
    unit: 'us',
    baseline: { name: 'without limits', value: bestCall.get('sandboxed')! },
    target: { maxRatio: 1.1, text: '≤ 1.1×' },
  });
}
