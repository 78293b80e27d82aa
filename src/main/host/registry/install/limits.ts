/** Limits for what an install may unpack, and the refusal type every check returns. */

export interface InstallLimits {
  /** Files and folders in the plugin. */
  maxEntries: number;
  /** Bytes once unpacked. */
  maxBytes: number;
  /** An entry larger than `bombMinBytes` that expands more than this many times is refused. */
  maxRatio: number;
  bombMinBytes: number;
}

export const DEFAULT_LIMITS: InstallLimits = {
  maxEntries: 4096,
  maxBytes: 64 * 1024 * 1024,
  maxRatio: 100,
  bombMinBytes: 1024 * 1024,
};

/** An install that cannot go ahead, with a message naming the entry or field at fault. */
export interface Refusal {
  ok: false;
  message: string;
}

export function refuse(message: string): Refusal {
  return { ok: false, message };
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
