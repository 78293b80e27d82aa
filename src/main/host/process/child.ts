/**
 * One plugin process: spawned in its own process group with an explicit environment, stdout fed
 * to a frame decoder, stderr kept in a bounded ring, and a stop sequence that always ends with
 * nothing of the group left running.
 */
/* eslint-disable max-lines -- one whole concern: one plugin process, from its spawn (in its control groups, under its limits' watch) to its stop */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { failure, type Failure } from '../../../shared/failures';
import { Emitter, delay, type IDisposable } from '../../../shared/lifecycle';
import type { Decoder } from '../framing';
import { startTimeOf } from '../../fs';
import { inCgroup, type PluginCgroup } from './cgroups';
import { groupAlive, killGroup, terminateSandboxed, trackGroup, unwrapSandboxExit, untrackGroup } from './group';
import { LimitWatch, type LimitBreach } from './limit-watch';
import type { LimitUsage } from './limits';
import type { RecordProcess } from './pid-registry';
import type { LaunchLimits } from './plan';
import { LineRing } from './ring';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when the exit was asked for (stop or kill), false when the plugin died on its own. */
  expected: boolean;
}

export interface SpawnOptions {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  launchMs: number;
  decoder: Decoder;
  /** For failure messages: the command as the user wrote it. */
  displayCommand: string[];
  pathSearched: string;
  stderrLines?: number;
  /** The file is bwrap running the plugin in its sandbox (sandbox.ts): signals and exits are the plugin's. */
  sandboxed?: boolean;
  /** Writes the process down in the pid registry until its group is empty (pid-registry.ts). */
  record?: RecordProcess;
  /** Hides secret values in every stderr line (redact.ts). */
  redact?: (text: string) => string;
  /** A sandboxed launch's limits: its control groups joined before bwrap starts, and the watch. */
  limits?: LaunchLimits;
  /** Names its control groups (the plugin's id). */
  name?: string;
}

/** How a stop went: which step ended the plugin, and whether its group outlived it. */
export interface StopResult {
  exit: ExitInfo;
  /** `graceful`: it exited after shutdown and stdin close; otherwise the signal it needed. */
  stage: 'already-exited' | 'graceful' | 'terminated' | 'killed';
  /** Processes of the plugin's group were still running after it exited (and were killed). */
  orphans: boolean;
  /** From the start of the stop to the exit of the plugin. */
  ms: number;
}

export interface StopOptions {
  /** Sent before stdin closes: the dialect's `shutdown`, if it has one. */
  farewell?: () => void;
  graceMs: number;
  termGraceMs: number;
  /**
   * After the plugin exits, how long its process group may take to empty on its own before what is
   * left is killed and reported as orphans. Children often need a moment to notice their parent is
   * gone (a server that exits 1.4 s after its parent is not an orphan). Default 0: kill at once.
   */
  orphanGraceMs?: number;
}

/** How long a sandbox's PID namespace may take to empty after bwrap has exited. */
const SANDBOX_TEARDOWN_MS = 500;

/** How long to wait for stdout to drain after the process exits, so no output is lost. */
const DRAIN_AFTER_EXIT_MS = 50;
/** Last resort after SIGKILL: the kernel reaps almost at once; this bounds the wait regardless. */
const KILL_WAIT_MS = 2000;

export class PluginProcess implements IDisposable {
  readonly stderr: LineRing;
  private readonly child: ChildProcessWithoutNullStreams;
  private exitInfo: ExitInfo | null = null;
  private expectingExit = false;
  private readonly exited: Promise<ExitInfo>;
  private framingFailed = false;
  private readonly sandboxed: boolean;
  private recorded: IDisposable | undefined;
  private watch: LimitWatch | undefined;
  private readonly _onDidExceedLimit = new Emitter<LimitBreach>();
  /** It went over one of its limits (limit-watch.ts): it is being killed, or has exited for it. */
  readonly onDidExceedLimit = this._onDidExceedLimit.event;

  private readonly _onDidReceive = new Emitter<Buffer>();
  private readonly _onDidStderr = new Emitter<string>();
  private readonly _onDidFramingError = new Emitter<string>();
  private readonly _onDidExit = new Emitter<ExitInfo>();
  /** Raw stdout bytes arrived (any output counts as a sign of life). */
  readonly onDidReceive = this._onDidReceive.event;
  /** One complete stderr line. */
  readonly onDidStderr = this._onDidStderr.event;
  /** The decoder hit a size cap; the process is already being killed. */
  readonly onDidFramingError = this._onDidFramingError.event;
  readonly onDidExit = this._onDidExit.event;

  private constructor(child: ChildProcessWithoutNullStreams, options: SpawnOptions, cgroup: PluginCgroup | null) {
    this.child = child;
    this.sandboxed = options.sandboxed === true;
    this.stderr = new LineRing(options.stderrLines ?? 500, undefined, options.redact);
    // Its start time names this process for good: the reaper and the pid registry check it before
    // they signal the group, so a pid the system reuses later is never theirs to kill.
    const start = child.pid === undefined ? null : (startTimeOf(child.pid) ?? null);
    trackGroup(child.pid, { reap: !this.sandboxed, start });
    if (child.pid !== undefined) this.recorded = options.record?.(child.pid, start);
    if (child.pid !== undefined && options.limits && this.sandboxed)
      this.watch = new LimitWatch({
        pid: child.pid,
        limits: options.limits.limits,
        dataDir: options.limits.dataDir,
        cgroup,
        onBreach: (b) => {
          this.expectingExit = true;
          this._onDidExceedLimit.fire(b);
          killGroup(child.pid, 'SIGKILL');
        },
      });
    let stdoutEnded = false;
    let onStdoutEnd: (() => void) | null = null;
    child.stdout.on('data', (chunk: Buffer) => {
      if (this.framingFailed) return;
      this._onDidReceive.fire(chunk);
      const err = options.decoder.push(chunk);
      if (err) {
        this.framingFailed = true;
        this._onDidFramingError.fire(err.reason);
      }
    });
    child.stdout.on('end', () => {
      stdoutEnded = true;
      onStdoutEnd?.();
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      for (const line of this.stderr.write(text)) this._onDidStderr.fire(line);
    });
    // A plugin that exits or closes stdin makes writes fail with EPIPE; the exit path reports it.
    child.stdin.on('error', () => {});
    child.stdout.on('error', () => {});
    child.stderr.on('error', () => {});
    this.exited = new Promise<ExitInfo>((resolve) => {
      child.once('exit', (code, signal) => {
        let finished = false;
        const finish = (): void => {
          // The drain timer and a late stdout end (a grandchild held stdout open) both lead here.
          if (finished) return;
          finished = true;
          onStdoutEnd = null;
          // A group with nothing left in it is forgotten, so its id is never signalled once reused.
          void groupAlive(child.pid).then((alive) => alive || this.forgetGroup());
          for (const line of this.stderr.flush()) this._onDidStderr.fire(line);
          // Killed by the kernel for a limit (an OOM kill in its control group): said before its exit.
          const breach = this.expectingExit ? null : this.watch?.atExit(this.stderr.tail(20));
          if (breach) this._onDidExceedLimit.fire(breach);
          this.exitInfo = {
            ...(this.sandboxed ? unwrapSandboxExit(code, signal) : { code, signal }),
            expected: this.expectingExit,
          };
          resolve(this.exitInfo);
          this._onDidExit.fire(this.exitInfo);
        };
        if (stdoutEnded) return finish();
        // Let buffered stdout reach the decoder first: a crash keeps what it already said.
        const t = setTimeout(finish, DRAIN_AFTER_EXIT_MS);
        onStdoutEnd = () => {
          clearTimeout(t);
          finish();
        };
      });
    });
  }

  /** Spawns and waits until the process is running, within `launchMs`. */
  static async start(options: SpawnOptions): Promise<PluginProcess | Failure> {
    const details = { command: options.displayCommand, pathSearched: options.pathSearched, cwd: options.cwd };
    const limited = options.sandboxed && options.limits ? inCgroup(options.limits, options.name, options) : null;
    if (limited === false)
      return failure('launch_failed', 'could not make the control group that holds its limits', details);
    const { file, args } = limited ?? options;
    const cgroup = limited ? limited.cgroup : null;
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(file, args, {
        cwd: options.cwd,
        env: options.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group on POSIX, so a stop reaches grandchildren too.
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (e) {
      return failure('launch_failed', `could not start ${options.file}: ${(e as Error).message}`, details);
    }
    const started = await new Promise<true | Failure>((resolve) => {
      const timer = setTimeout(() => {
        resolve(failure('launch_failed', `the process did not start within ${options.launchMs} ms`, details));
      }, options.launchMs);
      child.once('spawn', () => {
        clearTimeout(timer);
        resolve(true);
      });
      child.once('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        resolve(
          failure('launch_failed', `could not start ${options.file}: ${e.code ?? ''} ${e.message}`.trim(), details),
        );
      });
    });
    if (started !== true) {
      killGroup(child.pid, 'SIGKILL');
      cgroup?.remove();
      return started;
    }
    return new PluginProcess(child, options, cgroup);
  }

  get pid(): number | null {
    return this.child.pid ?? null;
  }

  get hasExited(): boolean {
    return this.exitInfo !== null;
  }

  get exit(): Promise<ExitInfo> {
    return this.exited;
  }

  write(bytes: string | Buffer): void {
    if (this.exitInfo || this.child.stdin.destroyed || this.child.stdin.writableEnded) return;
    this.child.stdin.write(bytes);
  }

  /** Immediate SIGKILL of the whole group. */
  kill(): void {
    this.expectingExit = true;
    killGroup(this.child.pid, 'SIGKILL');
  }

  /**
   * The stop sequence: farewell, close stdin, grace; SIGTERM to the group, grace; SIGKILL to the
   * group. Whatever the leader did, the group is killed at the end so grandchildren die too.
   */
  async stop(options: StopOptions): Promise<StopResult> {
    const started = Date.now();
    this.expectingExit = true;
    let stage: StopResult['stage'] = 'already-exited';
    if (!this.exitInfo) {
      stage = 'graceful';
      try {
        options.farewell?.();
      } catch {
        // The farewell is a courtesy; a broken pipe must not stop the stop.
      }
      this.child.stdin.end();
      if (!(await this.exitWithin(options.graceMs))) {
        stage = 'terminated';
        if (this.sandboxed) await terminateSandboxed(this.child.pid);
        else killGroup(this.child.pid, 'SIGTERM');
        if (!(await this.exitWithin(options.termGraceMs))) {
          stage = 'killed';
          killGroup(this.child.pid, 'SIGKILL');
          await this.exitWithin(KILL_WAIT_MS);
        }
      }
    }
    const ms = Date.now() - started;
    // A sandbox's other processes die with its PID namespace once bwrap has exited, which the
    // kernel does a moment after the exit is reported: that moment is not an orphan. (Nothing of
    // a sandbox can outlive its namespace; the wait only lasts while something is still there.)
    const graceUntil = Date.now() + (options.orphanGraceMs ?? (this.sandboxed ? SANDBOX_TEARDOWN_MS : 0));
    while ((await groupAlive(this.child.pid)) && Date.now() < graceUntil) await delay(50);
    const orphans = await groupAlive(this.child.pid);
    if (orphans) {
      killGroup(this.child.pid, 'SIGKILL');
      // Signals land asynchronously: resolve only once nothing of the group runs.
      const until = Date.now() + KILL_WAIT_MS;
      while ((await groupAlive(this.child.pid)) && Date.now() < until) await delay(10);
    }
    this.forgetGroup();
    return { exit: this.exitInfo ?? { code: null, signal: 'SIGKILL', expected: true }, stage, orphans, ms };
  }

  /** What it uses of its limits now (a sandboxed launch with limits), for the panel. */
  get limitUsage(): LimitUsage | null {
    return this.watch?.usage ?? null;
  }

  /** Nothing of the group runs any more: its id is never signalled again, and the registry forgets it. */
  private forgetGroup(): void {
    this.watch?.dispose();
    untrackGroup(this.child.pid);
    this.recorded?.dispose();
    this.recorded = undefined;
  }

  private async exitWithin(ms: number): Promise<boolean> {
    if (this.exitInfo) return true;
    const ac = new AbortController();
    const result = await Promise.race([this.exited.then(() => true), delay(ms, ac.signal).then(() => false)]);
    ac.abort();
    return result;
  }

  dispose(): void {
    // Whatever of the group is left dies with it.
    if (!this.exitInfo) this.kill();
    else {
      const pid = this.child.pid;
      void groupAlive(pid).then((alive) => (alive ? killGroup(pid, 'SIGKILL') : this.forgetGroup()));
    }
    this._onDidReceive.dispose();
    this._onDidStderr.dispose();
    this._onDidFramingError.dispose();
    this._onDidExit.dispose();
    this._onDidExceedLimit.dispose();
  }
}
