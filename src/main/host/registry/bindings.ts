/**
 * How the registry's decisions reach the host: each plugin's launch binding (what to spawn, from
 * its settings, secrets and grants as they are now, and its capability allow-list), computed here
 * and handed to the host when a plugin is bound and whenever a decision changes it. The host never
 * asks back: it launches with the last binding it was given.
 */
import os from 'node:os';
import { failure } from '../../../shared/failures';
import type { IDisposable } from '../../../shared/lifecycle';
import type { PluginSpec } from '../../../shared/model';
import type { PluginHost } from '../host';
import { ProcessBook } from '../process/pid-registry';
import { appReadOnlyFolders, grantedFolders, type SandboxRequest } from '../process/sandbox-prepare';
import type { LaunchBinding } from '../supervisor/supervisor';
import type { DataPaths } from './paths';
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

export class PluginBindings implements IDisposable {
  /** Where each plugin process is written down until it is gone (the data directory's pid registry). */
  readonly processes: ProcessBook;

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
    const env = { ...(this.opts.env ?? {}), ...this.paths.pluginEnv(id, spec.dir, this.opts.nodeModules) };
    // NVIDIA's plugins write their logs under %PROGRAMDATA%, or the working folder without it,
    // which is the plugin's own, read-only in the sandbox: elsewhere than Windows, their data folder.
    if (spec.dialect === 'gassist-v2' && process.platform !== 'win32') env.PROGRAMDATA = this.paths.pluginData(id);
    const values = await this.settings.launchValues(id, spec.settings);
    // An MCP server's roots are the folders it was granted: those the sandbox shows it.
    const folders = grantedFolders(spec.settings, values, allowedCapabilities, os.homedir());
    const roots = [...folders.writePaths, ...folders.readPaths];
    return { plan: await this.host.plan(spec, values, env, this.sandbox(id)), allowedCapabilities, record, roots };
  }

  /** The sandbox of a launch: the grants of now, its own data folder, the data directory hidden. */
  private sandbox(id: string): SandboxRequest | undefined {
    if (this.opts.sandbox === false) return undefined;
    return {
      grants: this.pluginState(id).grants,
      dataDir: this.paths.pluginData(id),
      hiddenRoot: this.paths.root,
      extraReadOnly: appReadOnlyFolders(this.opts),
    };
  }

  /** Puts a plugin into the host (replacing one with its id), with its binding. */
  async bind(spec: PluginSpec): Promise<void> {
    await this.settings.noteSecrets(spec.id, spec.settings);
    await this.host.add(spec, { binding: await this.binding(spec), enabled: this.pluginState(spec.id).enabled });
  }

  /** Stops a plugin and takes it out of the host (before its folder is replaced or removed). */
  unbind(id: string): Promise<void> {
    return this.host.remove(id);
  }

  /** Hands the host a fresh binding: the next launch uses it. */
  async rebind(spec: PluginSpec): Promise<void> {
    this.host.rebind(spec.id, await this.binding(spec));
  }

  /** After a change of settings or grants: the next launch uses them, and a running plugin restarts. */
  async applyToRunning(spec: PluginSpec): Promise<void> {
    await this.rebind(spec);
    if (spec.persistent && this.host.healthOf(spec.id)?.pid) await this.host.restart(spec.id);
  }
}
