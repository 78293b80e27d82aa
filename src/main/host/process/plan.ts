/**
 * What a launch is: the values of a plugin's settings, and the plan that says exactly what is
 * spawned (launch.ts computes it; the sandbox wraps it; the supervisor runs it).
 */

import type { RemoteOAuth } from '../remote/link';
import type { SecretValue } from './redact';

export type SettingValue = string | number | boolean | string[];

/** Whether the plan runs sandboxed; set when a sandbox was asked for. */
export type SandboxState = { active: true } | { active: false; reason: string };

export interface LaunchPlan {
  ok: true;
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** The command as it will run, for messages. */
  displayCommand: string[];
  pathSearched: string;
  /** What the start is doing, when it is more than launching (say, a launcher installing on first run). */
  note?: string;
  /** The handshake deadline this launch needs, when longer than the plugin's (a first-run install). */
  handshakeMs?: number;
  sandbox?: SandboxState;
  /** A remote MCP server: nothing is spawned; the host speaks to this URL with these headers. */
  remote?: {
    url: string;
    headers: Record<string, string>;
    /** OAuth sign-in for the server (remote/oauth.ts), set by the plan's owner; absent when the headers carry credentials. */
    oauth?: RemoteOAuth;
  };
  /**
   * The values of the plugin's sensitive settings in this launch: hidden wherever the launch's
   * output is shown (redact.ts). `displayCommand` is already clean.
   */
  secrets?: SecretValue[];
}
