/**
 * A package's install step (`npm install`, `uv venv` and `uv pip install`, `python -m venv` and
 * pip) run in the sandbox with the network and nothing of the person's: the one writable folder is
 * the plugin's folder being installed into, HOME is the private /tmp (caches stay out of the
 * plugin's folder and are thrown away), the data directory is out of sight, and the person's
 * registry settings (~/.npmrc, pip.conf, uv.toml), where the caller names them, are shown
 * read-only. The proxy and certificate variables of Plugboard's environment come along (env.ts
 * NETWORK_ENV), as for any plugin granted `net`; nothing else of it does.
 *
 * The command is found as a plugin's is (Plugboard's PATH and the login shell's; a shim read, not
 * run), and held to limits (limits.ts) as a plugin is: an install that forks or fills without end
 * is stopped and says which limit it went over. Where the sandbox does not work here, nothing is
 * run: the caller is told why.
 */
import { spawn } from 'node:child_process';
import { failure, type Failure } from '../../../shared/failures';
import { DEFAULT_TIMEOUTS, type PluginSpec } from '../../../shared/plugin';
import { inCgroup } from './cgroups';
import { killGroup } from './group';
import { LimitWatch, type LimitBreach } from './limit-watch';
import type { PluginLimits } from './limits';
import { planLaunchWithShellPath } from './plan-with-shell';
import { sandboxSupport, type SandboxSupport } from './sandbox-probe';

const GiB = 1024 * 1024 * 1024;
/** An install's caches live in its /tmp: more room than a plugin's, within the same memory. */
const INSTALL_LIMITS: Partial<PluginLimits> = { tmpBytes: 2 * GiB, dataBytes: 4 * GiB };
const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const TAIL_LINES = 40;

export interface InstallStepInput {
  /** What to run, as a manifest would write it: `['npm', 'install', '--omit=dev']`, `['uv', 'venv', '.venv']`. */
  command: string[];
  /** The one writable folder, and the working folder: the plugin's folder being installed into. */
  dir: string;
  /** Plugboard's data directory: never visible to the step. */
  hiddenRoot: string;
  /** Environment for the step (npm_config_*, UV_*), over the allow-list and the network variables. */
  env?: Record<string, string>;
  /** Files or folders of the person's to show read-only: ~/.npmrc, ~/.config/pip/pip.conf, ~/.config/uv/uv.toml. */
  readOnly?: string[];
  /** Limits over the install step's own defaults (a larger /tmp for caches). */
  limits?: Partial<PluginLimits>;
  timeoutMs?: number;
  /** Each line it prints, as it prints it (the preview's progress). */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  signal?: AbortSignal;
  /** Plugboard's environment (default process.env) and the sandbox here (default the probe's). */
  parentEnv?: NodeJS.ProcessEnv;
  support?: SandboxSupport;
}

export interface InstallStepResult {
  ok: true;
  /** The command as it ran (the program resolved), for the preview. */
  command: string[];
  /** Its last lines of output, stdout and stderr together. */
  tail: string[];
  ms: number;
}

/** Runs one install command in the install step's sandbox; a failure says what went wrong and shows its last lines. */
export async function runInstallStep(input: InstallStepInput): Promise<InstallStepResult | Failure> {
  const support = input.support ?? sandboxSupport();
  if (!support.available)
    return failure(
      'install_refused',
      `the install step runs only in the sandbox, which does not work here (${support.reason}); nothing was run`,
    );
  const spec: PluginSpec = {
    id: 'install-step',
    name: 'install step',
    version: '0.0.0',
    description: '',
    dialect: 'jsonrpc',
    framing: 'ndjson',
    manifestFormat: 'plugboard',
    manifestPath: input.dir,
    dir: input.dir,
    cwd: input.dir,
    command: input.command,
    env: input.env ?? {},
    persistent: false,
    tools: [],
    capabilities: ['net'],
    timeouts: DEFAULT_TIMEOUTS,
    settings: [],
    rpcFlavor: 'generic',
    userCommands: [],
    autoApprovedTools: [],
  };
  const plan = await planLaunchWithShellPath({
    spec,
    parentEnv: input.parentEnv ?? process.env,
    sandbox: {
      grants: ['net'],
      // Its own folder is the one it writes: shown read-only as the plugin's, then writable as its data.
      dataDir: input.dir,
      hiddenRoot: input.hiddenRoot,
      extraReadOnly: input.readOnly ?? [],
      limits: { ...INSTALL_LIMITS, ...input.limits },
      support,
    },
  });
  if (!plan.ok) return plan;
  if (plan.sandbox?.active !== true || !plan.limits)
    return failure('install_refused', 'the install step could not be put in the sandbox; nothing was run');
  // Caches and dotfiles in the private /tmp, not in the plugin's folder.
  const env = { ...plan.env, HOME: '/tmp', npm_config_update_notifier: 'false' };
  const limited = inCgroup(plan.limits, 'install', plan);
  if (limited === false) return failure('install_refused', 'could not make the control group that holds its limits');
  const { file, args } = limited ?? plan;
  const started = performance.now();
  const shown = plan.displayCommand.slice(plan.displayCommand.indexOf('--') + 1);
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: plan.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const tail: string[] = [];
    let breach: LimitBreach | null = null;
    let stopped: string | null = null;
    const watch =
      child.pid === undefined
        ? null
        : new LimitWatch({
            pid: child.pid,
            limits: plan.limits!.limits,
            dataDir: input.dir,
            cgroup: limited ? limited.cgroup : null,
            onBreach: (b) => {
              breach = b;
              killGroup(child.pid, 'SIGKILL');
            },
          });
    const stop = (why: string): void => {
      stopped ??= why;
      killGroup(child.pid, 'SIGKILL');
    };
    const timer = setTimeout(
      () => stop(`it ran past ${Math.round((input.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s`),
      input.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    const onAbort = (): void => stop('it was cancelled');
    input.signal?.addEventListener('abort', onAbort, { once: true });
    for (const [stream, name] of [
      [child.stdout, 'stdout'],
      [child.stderr, 'stderr'],
    ] as const) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => {
        const lines = (rest + d).split('\n');
        rest = lines.pop() ?? '';
        for (const l of lines) {
          tail.push(l);
          if (tail.length > TAIL_LINES) tail.shift();
          input.onLine?.(l, name);
        }
      });
    }
    const finish = (r: InstallStepResult | Failure): void => {
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', onAbort);
      watch?.dispose();
      resolve(r);
    };
    child.on('error', (e) => finish(failure('install_refused', `could not run ${shown.join(' ')}: ${e.message}`)));
    child.on('close', (code, signal) => {
      const details = { command: shown, cwd: plan.cwd, stderrTail: tail.slice(-20) };
      const b = breach ?? watch?.atExit(tail) ?? null;
      if (b) return finish(failure('limit_exceeded', `the install step was stopped: ${b.message}`, details));
      if (stopped) return finish(failure('install_refused', `the install step was stopped: ${stopped}`, details));
      if (code !== 0)
        return finish(
          failure('install_refused', `${shown.join(' ')} failed (${signal ?? `exit code ${code}`})`, details),
        );
      finish({ ok: true, command: shown, tail, ms: Math.round(performance.now() - started) });
    });
  });
}
