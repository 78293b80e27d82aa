/**
 * A plugin's running instances: the one held to serve calls (with the watchdog that pings it while
 * idle), the one-shot processes of single calls, and the launch that makes either, with the launch
 * binding the owner handed over. Also what the running plugin announced (its tools, its
 * instructions). This part launches, holds, lets go and stops processes; it decides nothing about
 * health or restarts: it reports what happens to its instances, and the supervisor decides.
 */
import { failure, ok, type Failure, type Result } from '../../../shared/failures';
import { Disposable, MutableDisposable } from '../../../shared/lifecycle';
import type { LogLevel, PluginSpec } from '../../../shared/plugin';
import type { IconSpec } from '../../../shared/apps';
import type { ClientSide } from '../asks';
import type { CallOutcome, DialectFactory } from '../dialects/types';
import type { StopResult } from '../process/child';
import { Instance, type LaunchBinding } from './instance';
import { InstancePool } from './instances';
import { ToolSet } from './tool-set';
import { Watchdog } from './watchdog';

/** What the running part reports, to the supervisor, which decides what follows. */
export interface RunningHooks {
  log(source: 'host' | 'plugin' | 'stderr', level: LogLevel, message: string): void;
  /** Someone needs the held instance and none runs (a start, a call): a user stop or a pending restart is over. */
  wanted(): void;
  /** A launch begins; `note` says how (the plan's note, or "launching"). */
  launching(note: string): void;
  /** A launch asked for by a start or a call failed (an automatic relaunch's failure is returned instead). */
  launchFailed(cause: Failure): void;
  /** An instance is held and serving (just launched, or a one-shot kept for a passthrough session). */
  up(): void;
  /** The watchdog's ping was answered. */
  pinged(rttMs: number): void;
  /** An instance died: the calls on it fail with the cause, before anything else happens. */
  dying(inst: Instance, cause: Failure): void;
  /** The instance that died has been let go; `held`: it was the held one. */
  died(cause: Failure, held: boolean): void;
  /** What an MCP server may ask of the host, but its roots: those come from the binding, kept here. */
  client(): Omit<ClientSide, 'roots'>;
}

/** The held instance and the watchdog that pings it while idle. */
interface Held {
  inst: Instance;
  watchdog: Watchdog;
  dispose(): void;
}

export class RunningInstances extends Disposable {
  private readonly held = this._register(new MutableDisposable<Held>());
  private readonly pool: InstancePool;
  /** Bumped by every stop: a launch that began before it is discarded when it completes. */
  private generation = 0;
  private starting: Promise<Result<Instance>> | null = null;
  /** Declared tools, completed by what the running plugin announced. */
  readonly tools: ToolSet;
  private announcedInstructions: string | undefined;
  private announcedIcons: IconSpec[] | undefined;

  constructor(
    private readonly spec: PluginSpec,
    private readonly dialect: DialectFactory,
    private binding: LaunchBinding,
    private readonly hooks: RunningHooks,
  ) {
    super();
    this.tools = this._register(new ToolSet(spec.tools));
    this.pool = this._register(new InstancePool((inst, cause) => this.onDeath(inst, cause)));
  }

  get isStarting(): boolean {
    return this.starting !== null;
  }

  /** The held instance, alive or not (a call compares its instance with it). */
  get heldInstance(): Instance | undefined {
    return this.held.value?.inst;
  }

  /** The held instance, if it is alive. */
  alive(): Instance | null {
    const inst = this.held.value?.inst;
    return inst && !inst.isDead ? inst : null;
  }

  /** The pid shown with the health: the held process's, else a one-shot's. */
  get pid(): number | null {
    return this.held.value?.inst.pid ?? this.pool.oneShots[0]?.pid ?? null;
  }

  /** The server's instructions for a model, from its last handshake (MCP). */
  get instructions(): string | undefined {
    return this.announcedInstructions;
  }

  /** The server's icons, from its last handshake (MCP, SEP-973). */
  get icons(): IconSpec[] | undefined {
    return this.announcedIcons;
  }

  /** Protocol entries still waiting, in the held instance and the one-shot ones. */
  get pendingCount(): number {
    let n = this.held.value?.inst.session.pendingCount ?? 0;
    for (const e of this.pool.oneShots) n += e.session.pendingCount;
    return n;
  }

  /** A new binding; a running server whose granted folders changed is told (MCP roots). */
  rebind(binding: LaunchBinding): void {
    const before = (this.binding.roots ?? []).join('\0');
    this.binding = binding;
    if ((binding.roots ?? []).join('\0') !== before) this.alive()?.session.rootsChanged?.();
  }

  /** The held instance, launched if there is none (one launch at a time). */
  ensure(): Promise<Result<Instance>> {
    const alive = this.alive();
    if (alive) return Promise.resolve(ok(alive));
    if (!this.starting) {
      this.hooks.wanted();
      this.starting = this.launchHeld().then((r) => {
        // A launch a stop discarded did not fail: the stop says what happened.
        if (!r.ok && r.code !== 'cancelled') this.hooks.launchFailed(r);
        return r;
      });
    }
    return this.starting;
  }

  /** Launches the held instance again after a death (the supervisor's back-off); a failure is returned. */
  relaunch(): Promise<Result<Instance>> {
    this.starting = this.launchHeld();
    return this.starting;
  }

  /** The instance a call runs on: the held one, else a new one (held if persistent). Passthrough input needs the held one. */
  instanceFor(input: boolean): Promise<Result<Instance>> {
    const held = this.alive();
    if (held) return Promise.resolve(ok(held));
    if (input) return Promise.resolve(failure('invalid_state', 'the passthrough session has ended'));
    return this.spec.persistent ? this.ensure() : this.launchOneShot();
  }

  /** Makes an instance the held one (a one-shot kept for a passthrough session, or a launch). */
  hold(inst: Instance): void {
    this.pool.forget(inst);
    this.pool.watch(inst);
    const watchdog = new Watchdog(inst.session, this.spec.timeouts, {
      lastLifeAt: () => inst.lastLifeAt,
      answered: (rtt) => this.hooks.pinged(rtt),
      unresponsive: (why) => inst.die(failure('unresponsive', `the plugin stopped responding: ${why}`), 'kill'),
    });
    this.held.value = { inst, watchdog, dispose: () => watchdog.dispose() };
    this.hooks.up();
  }

  /** The held instance, out of its role and kept as a one-shot (its passthrough session is over); returns it. */
  letGo(): Instance | undefined {
    const inst = this.release();
    if (inst) this.pool.addOneShot(inst);
    return inst;
  }

  /**
   * A call is about to run on `inst`: the held instance's watchdog stops pinging. A verdict on its
   * health may be pending (a ping out while it was idle): the promise resolves after it.
   */
  busy(inst: Instance): Promise<void> | undefined {
    return inst === this.held.value?.inst ? this.held.value.watchdog.pause() : undefined;
  }

  /** The held instance is idle again: its watchdog pings. */
  idle(): void {
    this.held.value?.watchdog.resume();
  }

  /** Runs an instance's stop sequence (once), held or not; resolves with how it went when nothing of it runs. */
  retire(inst: Instance): Promise<StopResult | undefined> {
    if (inst === this.held.value?.inst) this.release();
    return this.pool.retire(inst);
  }

  /**
   * A one-shot process that answered must also exit cleanly (rterm): its stdin closes, and the
   * answer stands only if it exits with code 0 within the stop grace; otherwise it is `crashed`.
   */
  async exitAfterCall(inst: Instance, outcome: CallOutcome): Promise<CallOutcome> {
    const r = await this.pool.retire(inst);
    if (!r) return outcome;
    const grace = this.spec.timeouts.stopGraceMs;
    if (r.stage === 'terminated' || r.stage === 'killed') {
      return failure(
        'crashed',
        `the plugin answered but did not exit within ${grace} ms of its response (it needed ${r.stage === 'killed' ? 'SIGKILL' : 'SIGTERM'})`,
        inst.details(r.exit),
      );
    }
    if (r.exit.signal)
      return failure('crashed', `the plugin answered, then was killed by ${r.exit.signal}`, inst.details(r.exit));
    if (r.exit.code !== 0 && r.exit.code !== null)
      return failure('crashed', `the plugin answered, then exited with code ${r.exit.code}`, inst.details(r.exit));
    return outcome;
  }

  /** Stops every process of the plugin and waits for them; a launch under way is discarded. */
  async stopAll(): Promise<void> {
    this.generation++;
    const inst = this.release();
    if (inst) void this.pool.retire(inst);
    await this.pool.retireAll();
    // A launch under way sees the new generation and retires what it started; wait for it.
    if (this.starting) await this.starting;
    await this.pool.retireAll();
  }

  /** A process for one call of a one-shot plugin. */
  private async launchOneShot(): Promise<Result<Instance>> {
    const r = await this.launch();
    if (!r.ok) {
      if (r.code !== 'cancelled') this.hooks.launchFailed(r);
      return r;
    }
    this.pool.addOneShot(r.value);
    return r;
  }

  private launchHeld(): Promise<Result<Instance>> {
    return this.launch().then((r) => {
      this.starting = null;
      if (r.ok) this.hold(r.value);
      return r;
    });
  }

  private async launch(): Promise<Result<Instance>> {
    const generation = this.generation;
    const { plan, allowedCapabilities, record } = this.binding;
    this.hooks.launching(plan.ok ? (plan.note ?? 'launching') : 'launching');
    if (!plan.ok) return plan;
    const { log } = this.hooks;
    const inst = await Instance.launch({
      spec: this.spec,
      plan,
      dialect: this.dialect,
      allowedCapabilities,
      ...(record ? { record } : {}),
      hooks: {
        diagnostic: (level, m) => log('host', level, m),
        pluginLog: (level, m) => log('plugin', level, m),
        stderr: (line) => log('stderr', 'info', line),
        toolsChanged: (tools) => this.tools.announce(tools),
        client: { ...this.hooks.client(), roots: () => this.binding.roots ?? [] },
      },
    });
    if (!(inst instanceof Instance)) return inst;
    if (this.isDisposed || generation !== this.generation) {
      // Stopped while it was starting: it must not come up behind the stop.
      await this.pool.retire(inst);
      return failure(
        'cancelled',
        this.isDisposed ? 'the host is shutting down' : `${this.spec.id} was stopped while it was starting`,
      );
    }
    if (inst.handshake?.tools) this.tools.announce(inst.handshake.tools);
    if (inst.handshake?.instructions) this.announcedInstructions = inst.handshake.instructions;
    if (inst.handshake?.icons) this.announcedIcons = inst.handshake.icons;
    return ok(inst);
  }

  /** Takes the held instance out of its role (its watchdog stops); returns it. */
  private release(): Instance | undefined {
    const inst = this.held.value?.inst;
    this.held.clear();
    return inst;
  }

  private onDeath(inst: Instance, cause: Failure): void {
    this.hooks.dying(inst, cause);
    void this.pool.retire(inst);
    const held = inst === this.held.value?.inst;
    if (held) this.release();
    this.hooks.died(cause, held);
  }

  /** The host is going away without waiting: kill what runs. */
  override dispose(): void {
    if (this.isDisposed) return;
    const inst = this.release();
    if (inst) {
      inst.kill();
      inst.dispose();
    }
    super.dispose();
  }
}
