/**
 * The data directory and what lives in it. One directory holds everything Plugboard writes:
 * Electron's userData in the app; --data-dir, $PLUGBOARD_HOME or the XDG config dir otherwise.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pluginEnvironment, type PluginIdentity } from '../host';

export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.PLUGBOARD_HOME) return path.resolve(env.PLUGBOARD_HOME);
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'Plugboard');
  if (platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'Plugboard');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'plugboard');
}

export class DataPaths {
  constructor(readonly root: string) {}

  /** Installed plugins, one folder each, named by id. */
  get plugins(): string {
    return path.join(this.root, 'plugins');
  }

  plugin(id: string): string {
    return path.join(this.plugins, id);
  }

  /** Exposure, enablement, grants and settings (no secrets). */
  get state(): string {
    return path.join(this.root, 'state.json');
  }

  /** Sensitive settings, when no OS secret store is available (readable by the owner only). */
  get secrets(): string {
    return path.join(this.root, 'secrets.json');
  }

  get audit(): string {
    return path.join(this.root, 'audit.log');
  }

  /** A plugin's own writable folder (PLUGBOARD_DATA_DIR). */
  pluginData(id: string): string {
    return path.join(this.root, 'plugin-data', id);
  }

  /**
   * The PLUGBOARD_* variables a plugin gets, its data folder made if missing. `nodeModules` is
   * the app's node_modules, for bundled plugins that need a native module (node-pty).
   */
  pluginEnv(spec: PluginIdentity, nodeModules?: string): Record<string, string> {
    const data = this.pluginData(spec.id);
    mkdirSync(data, { recursive: true });
    return pluginEnvironment(spec, data, nodeModules);
  }

  /** The version an upgrade replaced, kept for one rollback: `<data>/previous/<id>/` (install/previous.ts). */
  previous(id: string): string {
    return path.join(this.root, 'previous', id);
  }

  /** Where installs are unpacked and checked before they are moved into place. */
  get staging(): string {
    return path.join(this.root, '.staging');
  }

  /** Where `plugboard serve` keeps uploaded packages until they are installed or dropped (swept at its start). */
  get uploads(): string {
    return path.join(this.root, '.uploads');
  }

  /** The pid registry: one file per running Plugboard, naming its plugin processes (pid-registry.ts). */
  get processes(): string {
    return path.join(this.root, 'processes');
  }

  /** The conversation store (SQLite), held by one Plugboard at a time. */
  get conversations(): string {
    return path.join(this.root, 'conversations.sqlite');
  }
}
