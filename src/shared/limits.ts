/**
 * What a plugin may consume (processes, memory, CPU share, the size of its private /tmp and of its
 * data folder), as the manifest, the person, the panel and the CLI write and read it: the names,
 * checking a value, and showing one. The defaults and how they are enforced are the host's
 * (src/main/host/process/limits.ts).
 */

export interface PluginLimits {
  /** Processes and threads running at once (a thread counts: the kernel's pids and nproc limits count tasks). */
  processes: number;
  /** Memory of all its processes together, in bytes (its /tmp counts too where cgroups hold it). */
  memoryBytes: number;
  /** Its share of the CPU when the computer is busy: 100 is any other program's, 1 to 10000. */
  cpuWeight: number;
  /** Size of its private /tmp, and of its /dev/shm, in bytes (each RAM-backed). */
  tmpBytes: number;
  /** Size of its data folder, in bytes. */
  dataBytes: number;
}

export type LimitName = keyof PluginLimits;

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

/** The smallest value each limit may be set to: below it no real plugin starts. */
const MINIMUM: PluginLimits = { processes: 8, memoryBytes: 32 * MiB, cpuWeight: 1, tmpBytes: MiB, dataBytes: MiB };

export const LIMIT_TITLES: Record<LimitName, string> = {
  processes: 'process',
  memoryBytes: 'memory',
  cpuWeight: 'CPU share',
  tmpBytes: '/tmp size',
  dataBytes: 'data folder size',
};

/** The names people type (`memory=2G`), and the field each sets. */
const KEYS: Record<string, LimitName> = {
  processes: 'processes',
  memory: 'memoryBytes',
  cpu: 'cpuWeight',
  tmp: 'tmpBytes',
  data: 'dataBytes',
};

export const LIMIT_KEYS = Object.keys(KEYS);

/** The name people type for each field (`memoryBytes` → `memory`). */
export const LIMIT_KEY_OF = Object.fromEntries(Object.entries(KEYS).map(([k, v]) => [v, k])) as Record<
  LimitName,
  string
>;

/** `512M`, `2G`, `1.5GiB`, `1048576`: a size in bytes, or null. */
export function parseSize(text: string | number): number | null {
  if (typeof text === 'number') return Number.isFinite(text) && text >= 0 ? Math.floor(text) : null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b)?\s*$/i.exec(text);
  if (!m) return null;
  const unit = { '': 1, k: 1024, m: MiB, g: GiB, t: 1024 * GiB }[(m[2] ?? '').toLowerCase()] ?? 1;
  return Math.floor(Number(m[1]) * unit);
}

export function formatSize(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', GiB],
    ['MiB', MiB],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size) {
      const v = bytes / size;
      return `${Number.isInteger(v) ? v : v.toFixed(1)} ${unit}`;
    }
  }
  return `${bytes} B`;
}

/** A limit's value as a person reads it. */
export function formatLimit(name: LimitName, value: number): string {
  if (name === 'processes') return String(value);
  if (name === 'cpuWeight') return `${value} (100 = any program)`;
  return formatSize(value);
}

/** Limits in words, for an audit line or a message: `memory 2 GiB, process 256`. */
export function describeLimits(limits: Partial<PluginLimits>): string {
  return (Object.entries(limits) as Array<[LimitName, number]>)
    .map(([k, v]) => `${LIMIT_TITLES[k]} ${formatLimit(k, v)}`)
    .join(', ');
}

/**
 * Limits as written (`{memory: "2G", processes: 256}`, from a manifest, a setting or the command
 * line), checked: each known key, a value in range. The message names what was wrong and where.
 */
export function parseLimits(
  raw: unknown,
  where: string,
): { ok: true; limits: Partial<PluginLimits> } | { ok: false; message: string } {
  if (raw === undefined || raw === null) return { ok: true, limits: {} };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, message: `${where}: expected an object such as {"memory": "2G", "processes": 256}` };
  const out: Partial<PluginLimits> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    // The typed names, or the fields themselves (as the state file keeps them).
    const name = KEYS[key] ?? (key in LIMIT_TITLES ? (key as LimitName) : undefined);
    if (!name) return { ok: false, message: `${where}.${key}: not a limit (the limits are: ${LIMIT_KEYS.join(', ')})` };
    const isCount = name === 'processes' || name === 'cpuWeight';
    const n =
      typeof value === 'number' || typeof value === 'string' ? (isCount ? Number(value) : parseSize(value)) : null;
    if (n === null || !Number.isFinite(n) || (isCount && !Number.isInteger(n)))
      return {
        ok: false,
        message: `${where}.${key}: expected ${isCount ? 'a whole number' : 'a size such as 512M or 2G'}, got ${JSON.stringify(value)}`,
      };
    if (n < MINIMUM[name])
      return {
        ok: false,
        message: `${where}.${key}: ${value} is below the least it may be, ${formatLimit(name, MINIMUM[name])}`,
      };
    if (name === 'cpuWeight' && n > 10000)
      return { ok: false, message: `${where}.${key}: ${value} is above the most it may be, 10000` };
    out[name] = n;
  }
  return { ok: true, limits: out };
}

/** What a plugin uses of each limit right now; null where it cannot be measured here. */
export interface LimitUsage {
  processes: number | null;
  memoryBytes: number | null;
  tmpBytes: number | null;
  dataBytes: number | null;
}
