/**
 * What a plugin may consume: processes, memory, CPU share, the size of its private /tmp and of its
 * data folder. The defaults stop a fork bomb or a memory bomb before the computer suffers, and are
 * generous for real servers: a browser-driving MCP server (Chromium: a browser, a GPU and a network
 * process and a renderer per tab, some 150-250 threads and 0.5-1.5 GB) runs within them.
 *
 * A plugin's manifest may set its own (`limits` in plugboard.json) and the person may set them per
 * plugin, each checked by shared/limits.ts. How they are enforced on this computer (cgroups.ts, or
 * rlimits: sandbox-inner.ts) is the sandbox probe's answer; the watch that names a plugin stopped
 * for a limit is limit-watch.ts.
 */
import os from 'node:os';
import { formatLimit, GiB, LIMIT_TITLES, MiB, type PluginLimits } from '../../../shared/limits';

export type { LimitName, LimitUsage, PluginLimits } from '../../../shared/limits';

/** Control groups Plugboard may make here (cgroups.ts finds them). */
export type CgroupBackend =
  | { kind: 'cgroup2'; parent: string; cpu: boolean }
  | { kind: 'cgroup1'; memory: string; pids: string; cpu: string | null };

/** The limits of one launch, and how they are held. */
export interface LaunchLimits {
  limits: PluginLimits;
  /** Its data folder, measured against `limits.dataBytes`. */
  dataDir: string;
  /** Where the plugin gets control groups of its own; without, rlimits and the watch hold it. */
  cgroup?: CgroupBackend;
}

/** The defaults on this computer: memory is 4 GiB or half of it, whichever is less. */
export function defaultLimits(totalMemory = os.totalmem()): PluginLimits {
  return {
    processes: 1024,
    memoryBytes: Math.min(4 * GiB, Math.floor(totalMemory / 2)),
    cpuWeight: 50,
    tmpBytes: 512 * MiB,
    dataBytes: 2 * GiB,
  };
}

/**
 * What of a manifest's limits holds: each at most the default. A plugin may ask for less than the
 * defaults, never for more; only the person raises a limit (red team L07: a manifest's 64 GiB of
 * memory and /tmp were taken as they were).
 */
export function manifestLimits(asked: Partial<PluginLimits> | undefined): Partial<PluginLimits> | undefined {
  if (!asked) return undefined;
  const defaults = defaultLimits();
  const out: Partial<PluginLimits> = {};
  for (const [k, v] of Object.entries(asked) as Array<[keyof PluginLimits, number]>) out[k] = Math.min(v, defaults[k]);
  return out;
}

/** What a manifest asks for beyond the defaults, in words ("memory 64 GiB"), or null. */
export function limitsBeyondDefaults(asked: Partial<PluginLimits> | undefined): string | null {
  if (!asked) return null;
  const defaults = defaultLimits();
  const over = (Object.entries(asked) as Array<[keyof PluginLimits, number]>).filter(([k, v]) => v > defaults[k]);
  return over.length > 0 ? over.map(([k, v]) => `${LIMIT_TITLES[k]} ${formatLimit(k, v)}`).join(', ') : null;
}

/** The limits of a launch: the defaults, then the manifest's (manifestLimits), then the person's. */
export function effectiveLimits(...layers: Array<Partial<PluginLimits> | undefined>): PluginLimits {
  return Object.assign(defaultLimits(), ...layers.filter(Boolean)) as PluginLimits;
}
