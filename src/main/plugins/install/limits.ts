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
  // A real bundle: @modelcontextprotocol/server-filesystem with its dependencies has 4,730 entries
  // (3,160 once the bundle exclusions apply), and the file-system-node MCPB example right after
  // `npm install` 4,891 (3,354); `mcpb pack` makes 2,688 files of it. Room for heavier trees.
  maxEntries: 16_384,
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
