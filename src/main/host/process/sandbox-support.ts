/**
 * What the sandbox probe (sandbox-probe.ts) found on this computer: whether plugins run
 * sandboxed, who they run as under root, the helpers inside the sandbox and how limits are held.
 * Types only, so that what plans a sandbox (sandbox-prepare.ts) and the probe, which tries one,
 * need not import each other.
 */
import type { CgroupBackend } from './limits';
import type { RootMode, SandboxHelpers } from './sandbox-inner';

/** How plugins' limits are held here: by control groups, or by rlimits and tmpfs sizes. */
export interface LimitSupport {
  enforcement: 'cgroup2' | 'cgroup1' | 'rlimit';
  /** In words: what holds, and why not more where less. */
  note: string;
  cgroup?: CgroupBackend;
}

export type SandboxSupport =
  | {
      available: true;
      bwrap: string;
      version: string | null;
      /** Plugboard runs as root: who plugins run as instead (sandbox-inner.ts). */
      root?: RootMode | null;
      helpers?: SandboxHelpers;
      limits?: LimitSupport;
    }
  | { available: false; reason: string };
