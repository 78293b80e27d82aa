/**
 * One running plugin: its process, its framing and its protocol session, launched and shaken
 * hands with under deadlines. Reports its own death once, as a classified failure.
 */
import { failure, type Failure, type FailureDetails } from '../../../shared/failures';
import { DisposableStore, Emitter, type Event, type IDisposable } from '../../../shared/lifecycle';
import type { LogLevel, PluginSpec, ToolSpec } from '../../../shared/plugin';
import type { ClientSide } from '../asks';
import { withHeadline } from './headline';
import { handshakeWhileStarting } from './starting';
import type { DialectFactory, DialectSession, HandshakeInfo } from '../dialects/types';
import { createCodec } from '../framing';
import { PluginProcess, type ExitInfo, type StopOptions, type StopResult } from '../process/child';
import { limitFailure, type LimitBreach, type LimitWatch } from '../process/limit-watch';
import type { LaunchPlan } from '../process/launch';
import type { RecordProcess } from '../process/pid-registry';
import { redactFailure, redactor, type Redact } from '../process/redact';
import { RemoteLink } from '../remote/link';
import { netNotGranted } from '../remote/plan';

/** What the instance runs and talks to: a plugin process, or the link to a remote MCP server. */
export interface PluginLink extends IDisposable {
  readonly pid: number | null;
  readonly stderr: { tail(n: number): string[] };
  readonly onDidReceive: Event<unknown>;
  readonly onDidStderr: Event<string>;
  readonly onDidFramingError: Event<string>;
  readonly onDidExit: Event<ExitInfo>;
  stop(options: StopOptions): Promise<StopResult>;
  kill(): void;
  /** Why it ended, when the exit code does not say (a remote server that could not be reached). */
  describeExit?(exit: ExitInfo): string;
  /** A sandboxed process went over one of its limits (process/limit-watch.ts). */
  readonly onDidExceedLimit?: Event<LimitBreach>;
  /** What it uses of its limits now, where it runs under them. */
  readonly limitUsage?: LimitWatch['usage'] | null;
}

/** What a supervisor launches with, computed by its owner and handed over whole. */
export interface LaunchBinding {
  /** What to spawn; a failure says why the plugin cannot start (a missing setting, a withheld secret). */
  plan: LaunchPlan | Failure;
  /** The core-owned capability allow-list, checked at the handshake (rterm). */
  allowedCapabilities: readonly string[];
  /** Writes each process down in the data directory's pid registry (a registry's plugins). */
  record?: RecordProcess;
  /** The folders the person granted (fs.read / fs.write on its folder settings): an MCP server's roots. */
  roots?: string[];
}

export interface InstanceHooks {
  diagnostic(level: LogLevel, message: string): void;
  pluginLog(level: LogLevel, message: string): void;
  stderr(line: string): void;
  toolsChanged(tools: ToolSpec[]): void;
  /** What an MCP server may ask of the host (asks.ts). */
  client?: ClientSide;
}

const STDERR_TAIL_LINES = 20;

export class Instance implements IDisposable {
  private readonly store = new DisposableStore();
  private readonly _onDidDie = new Emitter<Failure>();
  /** The plugin died on its own, or broke its framing. Fires once. */
  readonly onDidDie = this._onDidDie.event;
  private dead: Failure | null = null;
  handshake: HandshakeInfo | null = null;
  /** When the plugin last wrote anything: any output counts as a sign of life. */
  lastLifeAt = Date.now();

  private constructor(
    readonly spec: PluginSpec,
    readonly plan: LaunchPlan,
    readonly proc: PluginLink,
    readonly session: DialectSession,
    /** Hides the launch's secret values (redact.ts). */
    readonly redact: Redact,
  ) {}

  /** A failure of this instance, its secret values hidden: the form every failure leaves in. */
  clean<F extends Failure>(f: F): F {
    return redactFailure(f, this.redact);
  }

  get pid(): number | null {
    return this.proc.pid;
  }

  get isDead(): boolean {
    return this.dead !== null;
  }

  get deathCause(): Failure | null {
    return this.dead;
  }

  static async launch(opts: {
    spec: PluginSpec;
    plan: LaunchPlan;
    dialect: DialectFactory;
    allowedCapabilities: readonly string[];
    record?: RecordProcess;
    hooks: InstanceHooks;
  }): Promise<Instance | Failure> {
    const { spec, plan } = opts;
    // Everything this instance says goes out with the launch's secret values hidden.
    const redact = redactor(plan.secrets);
    const hooks: InstanceHooks = {
      ...opts.hooks,
      diagnostic: (level, m) => opts.hooks.diagnostic(level, redact(m)),
      pluginLog: (level, m) => opts.hooks.pluginLog(level, redact(m)),
    };
    if (plan.remote) return Instance.launchRemote({ ...opts, hooks, redact, remote: plan.remote });
    let session: DialectSession | null = null;
    let instance: Instance | null = null;
    const codec = createCodec(spec.framing, {
      message: (v) => session?.receive(v),
      junk: (text, reason) => {
        const fatal = session?.junk(text, reason);
        if (fatal) instance?.die(fatal, 'kill');
      },
    });
    const proc = await PluginProcess.start({
      file: plan.file,
      args: plan.args,
      cwd: plan.cwd,
      env: plan.env,
      launchMs: spec.timeouts.launchMs,
      decoder: codec.decoder,
      displayCommand: plan.displayCommand,
      pathSearched: plan.pathSearched,
      sandboxed: plan.sandbox?.active === true,
      redact,
      name: spec.id,
      ...(plan.limits ? { limits: plan.limits } : {}),
      ...(opts.record ? { record: opts.record } : {}),
    });
    if (!(proc instanceof PluginProcess)) return redactFailure(proc, redact);
    session = opts.dialect.create({
      spec,
      allowedCapabilities: opts.allowedCapabilities,
      send: (m) => proc.write(codec.encoder.encode(m)),
      diagnostic: hooks.diagnostic,
      pluginLog: hooks.pluginLog,
      toolsChanged: hooks.toolsChanged,
      ...(hooks.client ? { client: hooks.client } : {}),
    });
    const inst = new Instance(spec, plan, proc, session, redact);
    instance = inst;
    return inst.shakeHands(hooks);
  }

  /** A remote MCP server: the same session and handshake over the link instead of a process. */
  private static async launchRemote(opts: {
    spec: PluginSpec;
    plan: LaunchPlan;
    dialect: DialectFactory;
    allowedCapabilities: readonly string[];
    hooks: InstanceHooks;
    redact: Redact;
    remote: NonNullable<LaunchPlan['remote']>;
  }): Promise<Instance | Failure> {
    let session: DialectSession | null = null;
    // The network is a grant, for a remote server as for a process: without `net` nothing is sent.
    if (!opts.allowedCapabilities.includes('net')) return netNotGranted(opts.spec, opts.remote.url);
    const link = await RemoteLink.open({ ...opts.remote, pluginId: opts.spec.id, message: (v) => session?.receive(v) });
    if (!(link instanceof RemoteLink)) return redactFailure(link, opts.redact);
    const s = opts.dialect.create({
      spec: opts.spec,
      allowedCapabilities: opts.allowedCapabilities,
      send: (m, options) => link.send(m, options),
      remote: true,
      diagnostic: opts.hooks.diagnostic,
      pluginLog: opts.hooks.pluginLog,
      toolsChanged: opts.hooks.toolsChanged,
      ...(opts.hooks.client ? { client: opts.hooks.client } : {}),
    });
    session = s;
    return new Instance(opts.spec, opts.plan, link, s, opts.redact).shakeHands(opts.hooks);
  }

  private async shakeHands(hooks: InstanceHooks): Promise<Instance | Failure> {
    const { spec, plan, session } = this;
    this.wire(hooks);

    const died = new Promise<Failure>((resolve) => this.onDidDie(resolve));
    // A launcher that installs on first run (npx, uvx…) gets the longer handshake its plan asks for;
    // a G-Assist plugin, while it runs processes of its own, up to a first run's (starting.ts).
    const deadlineMs = plan.handshakeMs ?? spec.timeouts.handshakeMs;
    const shaken = await handshakeWhileStarting(session, spec, deadlineMs, { pid: () => this.pid, died, hooks });
    if (!shaken.ok) {
      // A plugin that exits before it has shaken hands failed its handshake, except in rterm,
      // whose core calls that a crash (rune-terminal's conformance tests).
      const f: Failure =
        shaken.code === 'crashed' && spec.dialect !== 'rterm-v1'
          ? failure(
              'handshake_failed',
              spec.remote ? shaken.message : `the plugin exited during the handshake (${shaken.message})`,
              shaken.details,
            )
          : { ...shaken, details: { ...this.details(), ...shaken.details } };
      await this.stop();
      this.dispose();
      // The cause first, from what the plugin wrote to stderr (issue 21).
      return this.clean(withHeadline(f, spec.settings));
    }
    this.handshake = shaken.value;
    return this;
  }

  private wire(hooks: InstanceHooks): void {
    const { proc } = this;
    this.store.add(proc.onDidReceive(() => (this.lastLifeAt = Date.now())));
    this.store.add(proc.onDidStderr((line) => hooks.stderr(line)));
    this.store.add(
      proc.onDidFramingError((reason) =>
        this.die(failure('malformed_response', `the plugin broke its framing: ${reason}`), 'kill'),
      ),
    );
    const overLimit = proc.onDidExceedLimit;
    if (overLimit) this.store.add(overLimit((b) => this.die(limitFailure(this.spec.name, b, this.details()), 'kill')));
    this.store.add(
      proc.onDidExit((exit) => {
        if (exit.expected) return;
        this.die(failure('crashed', proc.describeExit?.(exit) ?? describeExit(exit), this.details(exit)), 'gone');
      }),
    );
  }

  /**
   * A call's outcome as it leaves: a failure gets the plugin's last stderr lines (and the launch
   * facts) where it lacks them, and the launch's secret values hidden (a plugin's error may quote
   * what it was given).
   */
  withStderr<O extends { ok: true } | Failure>(outcome: O): O {
    if (outcome.ok) return outcome;
    const f = outcome as Failure;
    return this.clean(f.details?.stderrTail ? f : { ...f, details: { ...this.details(), ...f.details } }) as O;
  }

  /** Facts for a failure message: command, cwd, exit, stderr tail. */
  details(exit?: ExitInfo): FailureDetails {
    const d: FailureDetails = {
      command: this.plan.displayCommand,
      cwd: this.plan.cwd,
      stderrTail: this.proc.stderr.tail(STDERR_TAIL_LINES),
    };
    if (exit) {
      d.exitCode = exit.code;
      d.signal = exit.signal;
    }
    return d;
  }

  /**
   * Marks the instance dead with a cause; its owner then runs the stop sequence. `kill` first
   * ends a process that can do nothing useful any more (frozen, broken framing) at once; `stop`
   * leaves it to the stop sequence, so a plugin that is only stuck in a call gets its shutdown
   * and SIGTERM and can clean up (a terminal plugin's shells, say); `gone` is for one that exited.
   */
  die(cause: Failure, how: 'kill' | 'stop' | 'gone'): void {
    if (this.dead) return;
    this.dead = this.clean(cause.details ? cause : { ...cause, details: this.details() });
    if (how === 'kill') this.proc.kill();
    // Tell the owner first, so the cause it sees is this one and not the session closing.
    this._onDidDie.fire(this.dead);
    this.session.dispose();
  }

  /** The stop sequence of docs/ARCHITECTURE.md; resolves when nothing of the plugin runs. */
  async stop(): Promise<StopResult> {
    const t = this.spec.timeouts;
    const result = await this.proc.stop({
      farewell: () => this.session.farewell(),
      graceMs: t.stopGraceMs,
      termGraceMs: t.termGraceMs,
    });
    this.session.dispose();
    return result;
  }

  kill(): void {
    this.proc.kill();
  }

  dispose(): void {
    this.store.dispose();
    this.session.dispose();
    this.proc.dispose();
    this._onDidDie.dispose();
  }
}

export function describeExit(exit: ExitInfo): string {
  if (exit.signal) return `the plugin was killed by ${exit.signal}`;
  if (exit.code === 0) return 'the plugin exited (code 0) without finishing';
  return `the plugin exited with code ${exit.code}`;
}
