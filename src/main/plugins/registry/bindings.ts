/**
 * How the registry's decisions reach the host: each plugin's launch binding (what to spawn, from
 * its settings, secrets and grants as they are now, and its capability allow-list), computed here
 * and handed to the host when a plugin is bound and whenever a decision changes it. The host never
 * asks back: it launches with the last binding it was given.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { failure } from '../../../shared/failures';
import type { IDisposable } from '../../../shared/lifecycle';
import type { FolderGrant } from '../../../shared/capabilities';
import type { PluginSpec, ToolSpec } from '../../../shared/plugin';
import type { InstallTrialView } from '../../../shared/views';
import {
  appReadOnlyFolders,
  grantedFolders,
  pluginEnvironment,
  ProcessBook,
  manifestLimits,
  trialCommand,
  tryLaunch,
  type LaunchBinding,
  type LaunchPlan,
  type PluginHost,
  type SettingValue,
  type SandboxRequest,
} from '../../host';
import type { DataPaths } from '../data-paths';
import type { PluginSettings } from './plugin-settings';
import type { PluginState } from './state';

export interface BindingOptions {
  /** The app's bundled plugins folder (visible, read-only, in every sandbox). */
  bundledDir?: string;
  /** `false`: plugins run unsandboxed even where the sandbox works. */
  sandbox?: boolean;
  /** The app's node_modules, for bundled plugins that need a native module (node-pty). */
  nodeModules?: string;
  /** Extra environment for every plugin (tests mark their processes with it). */
  env?: Record<string, string>;
}

/**
 * What a trial is given: nothing, at the preview; the person's values and choices when they try
 * it again from the preview, before installing (install.try).
 */
export interface TrialChoices {
  values?: Record<string, SettingValue>;
  grants?: readonly string[];
  folders?: readonly FolderGrant[];
}

export class PluginBindings implements IDisposable {
  /** Where each plugin process is written down until it is gone (the data directory's pid registry). */
  readonly processes: ProcessBook;
  /** Adds a remote server's OAuth sign-in to its plan (sign-ins.ts). */
  oauth?: (id: string, plan: LaunchPlan) => LaunchPlan;

  constructor(
    private readonly host: PluginHost,
    private readonly paths: DataPaths,
    private readonly settings: PluginSettings,
    private readonly pluginState: (id: string) => PluginState,
    private readonly opts: BindingOptions,
  ) {
    this.processes = new ProcessBook(paths.processes);
  }

  /** The host ended and its plugins with it: the pid registry's file goes. */
  dispose(): void {
    this.processes.dispose();
  }

  /** The launch binding of a plugin, from its settings, secrets and grants as they are now. */
  async binding(spec: PluginSpec): Promise<LaunchBinding> {
    const id = spec.id;
    const allowedCapabilities = this.pluginState(id).grants;
    const record = this.processes.recorder(id);
    const withheld = this.settings.withheld(id, spec.settings);
    if (withheld.length > 0) {
      const plan = failure(
        'capability_not_allowed',
        `${id} needs the secret setting${withheld.length > 1 ? 's' : ''} ${withheld.join(', ')}, but the secrets capability is not granted: grant it in the plugin's Permissions (plugboard plugins grant ${id} secrets)`,
      );
      return { plan, allowedCapabilities, record };
    }
    // The app's node_modules only for a plugin that loads from them (spec.appModules).
    const env = { ...(this.opts.env ?? {}), ...this.paths.pluginEnv(spec, this.appModules(spec)) };
    const values = await this.settings.launchValues(id, spec.settings);
    // An MCP server's roots are the folders it was granted: those the sandbox shows it.
    const folders = grantedFolders(spec.settings, values, allowedCapabilities, os.homedir());
    const byPath = (this.pluginState(spec.id).folders ?? []).map((f) => f.path);
    const roots = [...new Set([...folders.writePaths, ...folders.readPaths, ...byPath])];
    const plan = await this.host.plan(spec, values, env, this.sandbox(spec), allowedCapabilities);
    return { plan: plan.ok && this.oauth ? this.oauth(spec.id, plan) : plan, allowedCapabilities, record, roots };
  }

  /**
   * The sandbox of a launch: the grants of now, its own data folder, the data directory hidden,
   * and its limits (its manifest's, then the person's, over the defaults).
   */
  private sandbox(spec: PluginSpec): SandboxRequest | undefined {
    if (this.opts.sandbox === false) return undefined;
    const state = this.pluginState(spec.id);
    return {
      grants: state.grants,
      dataDir: this.paths.pluginData(spec.id),
      hiddenRoot: this.paths.root,
      extraReadOnly: this.appFolders(spec),
      limits: { ...manifestLimits(spec.limits), ...state.limits },
      ...(state.folders ? { folders: state.folders } : {}),
    };
  }

  /**
   * Tries a staged package (trial.ts) as it would run once installed: the same host plan and
   * sandbox, with its setting defaults and a scratch data folder that is removed afterwards.
   * Before the person has said yes it is granted nothing (no network, none of their folders, no
   * conversation, no secrets), and it runs only inside the sandbox (trial.ts refuses otherwise).
   * Tried again from the preview (`chosen`), it gets the values typed in the form and what the
   * person chose to grant there, as it would installed with them.
   * Answers the command it would run and how the trial went.
   */
  async trial(
    spec: PluginSpec,
    deadlineMs?: number,
    chosen: TrialChoices = {},
  ): Promise<{ command: string[]; trial: InstallTrialView; announced?: ToolSpec[] }> {
    const scratch = mkdtempSync(path.join(os.tmpdir(), `plugboard-trial-${spec.id}-`));
    try {
      const grants = [...(chosen.grants ?? [])];
      const folders = [...(chosen.folders ?? [])];
      const env = { ...(this.opts.env ?? {}), ...pluginEnvironment(spec, scratch, this.appModules(spec)) };
      const sandbox: SandboxRequest | undefined =
        this.opts.sandbox === false
          ? undefined
          : {
              grants,
              dataDir: scratch,
              hiddenRoot: this.paths.root,
              extraReadOnly: this.appFolders(spec),
              // The trial is held to the limits the plugin will have installed (its scratch data folder too).
              ...(spec.limits ? { limits: manifestLimits(spec.limits) } : {}),
              ...(folders.length > 0 ? { folders } : {}),
            };
      // A secret typed in the preview reaches the trial only as it would the plugin: with `secrets` granted.
      const values = Object.fromEntries(
        Object.entries(chosen.values ?? {}).filter(
          ([k]) => grants.includes('secrets') || !spec.settings.some((s) => s.key === k && s.sensitive),
        ),
      );
      const plan = await this.host.plan(spec, values, env, sandbox, grants);
      // Shown as it will run once installed: from the plugin's own folder, not the staging copy.
      const installed = this.paths.plugin(spec.id);
      const command = trialCommand(spec, plan).map((w) => w.split(spec.dir).join(installed));
      const seen: { tools?: ToolSpec[] } = {};
      const trial = await tryLaunch(
        spec,
        { plan, allowedCapabilities: grants, folders: folders.length },
        deadlineMs,
        seen,
      );
      return { command, trial, ...(seen.tools ? { announced: seen.tools } : {}) };
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }

  /** The app's node_modules, for a plugin that loads libraries from them (`app_modules`). */
  private appModules(spec: PluginSpec): string | undefined {
    return spec.appModules ? this.opts.nodeModules : undefined;
  }

  /** The app's folders a plugin sees read-only: the SDK, and the node_modules where it asks for them. */
  private appFolders(spec: PluginSpec): string[] {
    const nodeModules = this.appModules(spec);
    return appReadOnlyFolders({
      ...(this.opts.bundledDir ? { bundledDir: this.opts.bundledDir } : {}),
      ...(nodeModules ? { nodeModules } : {}),
    });
  }

  /** Puts a plugin into the host (replacing one with its id), with its binding. */
  async bind(spec: PluginSpec): Promise<void> {
    await this.settings.noteSecrets(spec.id, spec.settings);
    await this.host.add(spec, { binding: await this.binding(spec), enabled: this.pluginState(spec.id).enabled });
  }

  /**
   * A plugin just installed starts as it would at the next start of the app: when it is
   * persistent, enabled and has every required setting. Not awaited: its first start may take a
   * while, and the outcome reaches the screen as health events.
   */
  async startInstalled(spec: PluginSpec): Promise<void> {
    if (
      !spec.persistent ||
      !this.pluginState(spec.id).enabled ||
      this.settings.missing(spec.id, spec.settings).length > 0
    )
      return;
    void this.host.start(spec.id).catch(() => undefined);
  }

  /** Whether the plugin has a process now: an upgrade or a rollback starts it again afterwards. */
  running(id: string): boolean {
    return this.host.healthOf(id)?.pid != null;
  }

  /** Starts a plugin without waiting for it (its health events say how it went). */
  startSoon(id: string): void {
    void this.host.start(id).catch(() => undefined);
  }

  /** Stops a plugin and takes it out of the host (before its folder is replaced or removed). */
  unbind(id: string): Promise<void> {
    return this.host.remove(id);
  }

  /** Hands the host a fresh binding: the next launch uses it. */
  async rebind(spec: PluginSpec): Promise<void> {
    this.host.rebind(spec.id, await this.binding(spec));
  }

  /**
   * After a change of settings or grants: the next launch uses them, and a running plugin
   * restarts. So does one still starting: its launch was planned with the old values (a save
   * right after the save that started it), and the stop retires that launch.
   */
  async applyToRunning(spec: PluginSpec): Promise<void> {
    await this.rebind(spec);
    const h = this.host.healthOf(spec.id);
    if (spec.persistent && (h?.pid || h?.state === 'starting')) await this.host.restart(spec.id);
  }

  /**
   * After a valid save of settings: a running plugin restarts with them (applyToRunning), and an
   * enabled one that was not running because it lacked settings or had failed is brought back at
   * once, so the person who fixed a setting sees it work (or the new error) without a reload. A
   * plugin the person stopped on purpose stays stopped. Returns what was done, in words, or null.
   */
  async afterSettingsSaved(spec: PluginSpec, wasUnconfigured: boolean): Promise<string | null> {
    const id = spec.id;
    const before = this.host.healthOf(id);
    await this.applyToRunning(spec);
    if (before?.pid || before?.state === 'starting') return spec.persistent ? 'restarted with them' : null;
    if (!this.pluginState(id).enabled || this.settings.missing(id, spec.settings).length > 0) return null;
    const failed = before !== undefined && ['failed', 'crashed', 'unresponsive'].includes(before.state);
    if (!failed && !wasUnconfigured) return null;
    if (spec.persistent) {
      // Not awaited: a first-run launcher may take minutes to shake hands, and the save is done.
      // The outcome reaches the screen as health events (ready, or the new failure).
      void this.host.start(id).catch(() => undefined);
      return 'starting it';
    }
    if (!failed) return null;
    // A one-shot plugin runs on its next call: the old failure goes, and stopping is how a
    // supervisor comes to rest with a reason; the start after it clears that stop.
    await this.host.stop(id, 'settings saved: it starts on its next call');
    await this.host.start(id);
    return 'the old error is cleared';
  }
}
