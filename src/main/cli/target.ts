/**
 * What `<plugin>` names on the command line: a plugin folder, a manifest file, or the id of an
 * installed (or bundled) plugin. A path runs the plugin as it is, its manifest's capabilities as
 * its allow-list; an id goes through the registry, with the user's exposure, grants and settings.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { requestedCapabilities } from '../../shared/capabilities';
import { failure, type Failure } from '../../shared/failures';
import type { PluginSpec } from '../../shared/model';
import { PluginHost } from '../host/host';
import { describeManifestErrors, loadManifest } from '../host/manifests';
import type { SettingValue } from '../host/process/launch';
import { DataPaths, defaultDataDir } from '../host/registry/paths';
import { PluginRegistry } from '../host/registry/registry';
import type { CallHandle, CallOptions, PluginSupervisor } from '../host/supervisor/supervisor';
import { packageRoot } from './package-root';

/** The app's bundled plugins: $PLUGBOARD_BUNDLED_PLUGINS, else the checkout's plugins/ folder. */
export function bundledPluginsDir(): string {
  if (process.env.PLUGBOARD_BUNDLED_PLUGINS) return path.resolve(process.env.PLUGBOARD_BUNDLED_PLUGINS);
  return path.join(packageRoot(), 'plugins');
}

export function nodeModulesDir(): string {
  return path.join(packageRoot(), 'node_modules');
}

export function dataDirOf(flag: string | undefined): string {
  return flag ? path.resolve(flag) : defaultDataDir();
}

export function looksLikePath(arg: string): boolean {
  return existsSync(arg) || arg.includes('/') || arg.includes('\\') || arg.startsWith('.');
}

/** A plugin ready for calls, however it was named. */
export interface CallTarget {
  host: PluginHost;
  sup: PluginSupervisor;
  warnings: string[];
  call(tool: string, args: Record<string, unknown>, opts: CallOptions): CallHandle;
  input(text: string, opts: CallOptions): CallHandle;
  shutdown(): Promise<void>;
}

export async function openCallTarget(arg: string, dataDir: string, settings: Record<string, SettingValue> = {}): Promise<CallTarget | Failure> {
  if (looksLikePath(arg)) {
    const m = loadManifest(arg);
    if (!m.ok) return failure('launch_failed', `invalid plugin manifest ${describeManifestErrors(m)}`);
    const spec = m.spec;
    const paths = new DataPaths(dataDir);
    const host = new PluginHost({ hostEnv: (s) => pathRunEnv(s, paths) });
    // A plugin run from a path: its manifest (and protocol) are its allow-list.
    const caps = requestedCapabilities(spec);
    const sup = await host.add(spec, { allowedCapabilities: () => caps, settings: () => settings });
    return {
      host,
      sup,
      warnings: m.warnings,
      call: (t, a, o) => sup.call(t, a, o),
      input: (t, o) => sup.input(t, o),
      shutdown: () => host.shutdown(),
    };
  }
  const registry = await PluginRegistry.open({ dataDir, bundledDir: bundledPluginsDir(), nodeModules: nodeModulesDir() });
  const rec = registry.record(arg);
  const sup = registry.supervisor(arg);
  if (!rec || !sup) {
    await registry.shutdown();
    const known = registry.list().map((r) => r.id);
    if (rec?.error) return failure('launch_failed', `${arg} could not be loaded: ${rec.error}`);
    return failure('launch_failed', `no plugin folder or manifest at "${arg}", and no installed plugin with that id (installed and bundled: ${known.join(', ') || 'none'}; data directory ${dataDir})`);
  }
  return {
    host: registry.host,
    sup,
    warnings: rec.warnings,
    call: (t, a, o) => registry.call(arg, t, a, o),
    input: (t, o) => registry.input(arg, t, o),
    shutdown: () => registry.shutdown(),
  };
}

function pathRunEnv(spec: PluginSpec, paths: DataPaths): Record<string, string> {
  const data = paths.pluginData(spec.id);
  mkdirSync(data, { recursive: true });
  return { PLUGBOARD_PLUGIN_ID: spec.id, PLUGBOARD_PLUGIN_DIR: spec.dir, PLUGBOARD_DATA_DIR: data, PLUGBOARD_NODE_MODULES: nodeModulesDir() };
}
