/**
 * The failure taxonomy every part of Plugboard speaks. A failure is a value, not an exception:
 * it travels from the host to the CLI, the UI and the tests unchanged, and each code has one
 * meaning, so the UI can act on it (a missing setting opens the Settings tab, a disabled plugin
 * offers Enable). `FAILURE_MEANINGS` says what each one means.
 */

export const FAILURE_CODES = [
  'launch_failed',
  'handshake_failed',
  'timeout',
  'crashed',
  'malformed_response',
  'tool_not_exposed',
  'unknown_tool',
  'protocol_version_mismatch',
  'capability_not_declared',
  'capability_not_allowed',
  'invalid_arguments',
  'unresponsive',
  'plugin_error',
  'cancelled',
  'not_found',
  'disabled',
  'invalid_state',
  'invalid_input',
  'settings_missing',
  'install_refused',
  'io_error',
  'registry_unreachable',
  'no_model',
  'model_unreachable',
  'model_refused',
  'rate_limited',
  'context_too_long',
  'model_error',
  'sign_in_required',
  'manifest_invalid',
  'step_limit',
  'disconnected',
  'internal_error',
  'approval_required',
  'denied',
] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];

/** What each code means: one meaning per code. */
export const FAILURE_MEANINGS: Record<FailureCode, string> = {
  launch_failed: 'the plugin process could not be started',
  handshake_failed: 'the plugin started but did not complete its protocol handshake',
  timeout: 'a deadline passed: no answer or output for too long, or a call over its cap',
  crashed: 'the plugin process exited or was killed when it should have been running',
  malformed_response: 'the plugin sent something its protocol does not allow',
  tool_not_exposed: 'the tool is switched off, or the plugin does not offer it',
  unknown_tool: 'the plugin neither declares nor announces a tool of that name: the call was not sent to it',
  protocol_version_mismatch: 'the plugin speaks a version of its protocol Plugboard does not',
  capability_not_declared: 'the plugin did not name a capability its binding requires it to name',
  capability_not_allowed: 'the plugin asked for a capability that was not granted to it',
  invalid_arguments: 'a tool call’s arguments do not match the tool’s schema',
  unresponsive: 'the plugin stopped answering pings while idle and was killed',
  plugin_error: 'the plugin ran the call and reported an error',
  cancelled: 'the call was stopped before it finished (by you, a stop, or shutdown)',
  not_found: 'no plugin, tool, conversation, turn or preview has that name',
  disabled: 'the plugin is disabled',
  invalid_state: 'the request does not fit the current state (nothing to stop, no session open, an expired preview)',
  invalid_input: 'a value given to Plugboard is malformed or out of range',
  settings_missing: 'the plugin needs settings that have no value yet',
  install_refused: 'the package cannot be installed as it is',
  io_error: 'a file could not be read or written (a full disk, permissions)',
  registry_unreachable:
    'the MCP registry catalog or a package registry (npm, PyPI) could not be reached, or answered outside its API',
  no_model: 'no language model is connected, or the one named does not exist',
  model_unreachable: 'the model’s server could not be reached',
  model_refused: 'the model’s provider refused the request: the API key, or access to that model',
  rate_limited: 'the model’s provider asked to wait before the next request',
  context_too_long: 'the conversation is longer than the model can read at once',
  model_error: 'the model’s provider failed, or its answer broke off',
  sign_in_required:
    'a remote server needs the person to sign in (OAuth): no sign-in yet, or it refused the tokens and they could not be renewed',
  manifest_invalid: 'the plugin’s manifest cannot be read, or asks for something Plugboard cannot run',
  step_limit: 'the model’s turn used all the rounds of tool calls it may take (the step cap)',
  disconnected: 'the window could not reach Plugboard: not connected, or no answer in time',
  internal_error: 'Plugboard failed in a way it did not expect (a bug): the message says where',
  approval_required:
    'the call needs a person’s approval, and there was no one to ask (no form in the calling app, no Plugboard open)',
  denied: 'a person, or their policy for the tool, refused the call: nothing ran',
};

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
  /** A stopped call whose plugin had to be restarted to stop it (it has no way to cancel a call). */
  restarted?: boolean;
  /**
   * What the plugin was not granted and seems to have failed for want of: the network, or a
   * folder or file its command or environment names. The screen offers to grant it.
   */
  missingGrant?: MissingGrant;
}

export type MissingGrant = { kind: 'net' } | { kind: 'folder'; path: string; write: boolean };

export interface Failure {
  ok: false;
  code: FailureCode;
  message: string;
  details?: FailureDetails;
}

/**
 * The one result shape, from the host to the screen: `{ ok: true, …fields }` or a Failure.
 * `Result<T>` is the form that carries a single value.
 */
export type Outcome<T extends object = object> = ({ ok: true } & T) | Failure;
export type Result<T> = Outcome<{ value: T }>;
/** What an action answers (start, grant, rename, save…): what it did, in words, or why it refused. */
export type Done = Outcome<{ detail: string }>;

export function isFailure(v: unknown): v is Failure {
  return typeof v === 'object' && v !== null && (v as Failure).ok === false && typeof (v as Failure).code === 'string';
}

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

/** A thrown value as a failure: a FailureError's own, else an unexpected error (`internal_error`). */
export function failureOf(e: unknown): Failure {
  if (e instanceof FailureError) return e.failure;
  return failure('internal_error', e instanceof Error ? e.message : String(e));
}

/**
 * A failure that has to cross an exception boundary (opening the data directory at start-up,
 * where there is no caller to hand a value to). Its message is one line a person can act on: the
 * CLI and the app print it as it is, never with a stack.
 */
export class FailureError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
    this.name = 'FailureError';
  }
}
