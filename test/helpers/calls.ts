/** Runs a call through a supervisor and keeps everything it emitted, in order. */
import type { CallOutcome } from '../../src/main/host/dialects/types';
import { PluginHost } from '../../src/main/host/host';
import type { SettingValue } from '../../src/main/host/process/launch';
import { loadManifest } from '../../src/main/plugins/manifests';
import type { CallOptions, LaunchBinding, PluginSupervisor } from '../../src/main/host/supervisor/supervisor';
import { TEST_RUN_MARK } from './processes';
import type { CallEvent, HealthEvent, HealthState, LogEvent, PluginSpec } from '../../src/shared/plugin';

export interface Collected {
  outcome: CallOutcome;
  chunks: unknown[];
  events: CallEvent[];
  ms: number;
}

export async function collect(
  sup: PluginSupervisor,
  tool: string,
  args: Record<string, unknown> = {},
  opts: CallOptions = {},
): Promise<Collected> {
  const events: CallEvent[] = [];
  const t0 = performance.now();
  const outcome = await sup.call(tool, args, { ...opts, onEvent: (e) => events.push(e) }).done;
  return {
    outcome,
    events,
    chunks: events.filter((e) => e.type === 'stream').map((e) => (e as { data: unknown }).data),
    ms: performance.now() - t0,
  };
}

export function specOf(dir: string): PluginSpec {
  const r = loadManifest(dir);
  if (!r.ok) throw new Error(`${r.file}: ${r.errors.join('; ')}`);
  return r.spec;
}

export interface AddSpecOptions {
  settings?: Record<string, SettingValue>;
  allowedCapabilities?: readonly string[];
  enabled?: boolean;
}

/** A host that records every health and log event, per plugin. */
export class RecordingHost extends PluginHost {
  readonly health: HealthEvent[] = [];
  readonly logs: LogEvent[] = [];

  constructor() {
    super();
    this.onDidChangeHealth((h) => this.health.push(h));
    this.onDidLog((l) => this.logs.push(l));
  }

  /**
   * The binding a plugin gets here: launched as its manifest says with these settings, its own
   * capabilities as its allow-list, and every process marked, so leak checks see this worker's only.
   */
  async bindingFor(spec: PluginSpec, opts: AddSpecOptions = {}): Promise<LaunchBinding> {
    const mark = { [TEST_RUN_MARK.split('=')[0] as string]: TEST_RUN_MARK.split('=')[1] as string };
    return {
      plan: await this.plan(spec, opts.settings ?? {}, mark),
      allowedCapabilities: opts.allowedCapabilities ?? spec.capabilities,
    };
  }

  async addSpec(spec: PluginSpec, opts: AddSpecOptions = {}): Promise<PluginSupervisor> {
    return this.add(spec, {
      binding: await this.bindingFor(spec, opts),
      ...(opts.enabled !== undefined ? { enabled: opts.enabled } : {}),
    });
  }

  async addDir(dir: string, opts: AddSpecOptions = {}): Promise<PluginSupervisor> {
    return this.addSpec(specOf(dir), opts);
  }

  list(): PluginSupervisor[] {
    return this.ids().map((id) => this.get(id) as PluginSupervisor);
  }

  states(pluginId: string, since = 0): HealthState[] {
    return this.health
      .slice(since)
      .filter((h) => h.pluginId === pluginId)
      .map((h) => h.state);
  }

  /** The position of an event in the record: wait for what follows it with `since`. */
  after(e: HealthEvent): number {
    return this.health.lastIndexOf(e) + 1;
  }

  /**
   * Resolves when the plugin reaches `state` (or rejects after `ms`). Busy/ready events are
   * coalesced by the supervisor and may be published up to 50 ms late: to wait for a `ready`
   * that follows a crash, pass `since` = `after(crashedEvent)`, not a mark taken before the kill.
   */
  waitFor(pluginId: string, state: HealthState, ms = 10_000, since = 0): Promise<HealthEvent> {
    return new Promise((resolve, reject) => {
      const hit = this.health.slice(since).find((h) => h.pluginId === pluginId && h.state === state);
      if (hit) return resolve(hit);
      const timer = setTimeout(() => {
        sub.dispose();
        reject(
          new Error(
            `${pluginId} did not reach ${state} within ${ms} ms (states: ${this.states(pluginId).join(' → ')})`,
          ),
        );
      }, ms);
      const sub = this.onDidChangeHealth((h) => {
        if (h.pluginId === pluginId && h.state === state) {
          clearTimeout(timer);
          sub.dispose();
          resolve(h);
        }
      });
    });
  }
}

export function expectFailure(outcome: CallOutcome): Extract<CallOutcome, { ok: false }> {
  if (outcome.ok) throw new Error(`expected a failure, got success: ${JSON.stringify(outcome.value)}`);
  return outcome;
}

/**
 * A supervisor's pending protocol entries once transient ones have settled. An idle plugin is
 * pinged by its watchdog, and a ping in flight is a pending entry for up to its deadline: a leak
 * check reads the count after waiting (up to `ms`) for it to reach zero, so it sees entries that
 * stay, never a ping that happened to be out at that moment.
 */
export async function settledPending(sup: { readonly pendingCount: number }, ms = 5000): Promise<number> {
  const end = Date.now() + ms;
  while (sup.pendingCount !== 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  return sup.pendingCount;
}
