/**
 * The failure taxonomy every part of Plugboard speaks. A failure is a value, not an exception:
 * it travels from the host to the CLI, the UI and the tests unchanged.
 */

export const FAILURE_CODES = [
  'launch_failed',
  'handshake_failed',
  'timeout',
  'crashed',
  'malformed_response',
  'tool_not_exposed',
  'protocol_version_mismatch',
  'capability_not_declared',
  'capability_not_allowed',
  'invalid_arguments',
  'unresponsive',
  'plugin_error',
  'cancelled',
] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];

/** Facts that help a person act on a failure. Only the ones that apply are set. */
export interface FailureDetails {
  /** The command as launched (absolute after resolution), with its arguments. */
  command?: string[];
  /** The PATH that was searched to resolve the command. */
  pathSearched?: string;
  /** The working directory of the launch. */
  cwd?: string;
  exitCode?: number | null;
  signal?: string | null;
  /** The plugin's last stderr lines, oldest first. */
  stderrTail?: string[];
  /** JSON-RPC error code as the plugin sent it, and its meaning in the plugin's dialect. */
  rpcCode?: number;
  rpcMeaning?: string;
  /** Extra data the plugin attached to its error. */
  data?: unknown;
}

export interface Failure {
  ok: false;
  code: FailureCode;
  message: string;
  details?: FailureDetails;
}

export type Result<T> = { ok: true; value: T } | Failure;

export function failure(code: FailureCode, message: string, details?: FailureDetails): Failure {
  return details === undefined ? { ok: false, code, message } : { ok: false, code, message, details };
}

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** One line a person can read: `code: message`, then the facts that apply. */
export function describeFailure(f: Failure): string {
  const lines = [`${f.code}: ${f.message}`];
  const d = f.details;
  if (d?.command) lines.push(`  command: ${d.command.join(' ')}`);
  if (d?.cwd) lines.push(`  working directory: ${d.cwd}`);
  if (d?.pathSearched !== undefined) lines.push(`  PATH searched: ${d.pathSearched || '(empty)'}`);
  if (d?.exitCode !== undefined && d.exitCode !== null) lines.push(`  exit code: ${d.exitCode}`);
  if (d?.signal) lines.push(`  signal: ${d.signal}`);
  if (d?.stderrTail && d.stderrTail.length > 0) {
    lines.push('  last stderr lines:');
    for (const l of d.stderrTail) lines.push(`    ${l}`);
  }
  return lines.join('\n');
}
