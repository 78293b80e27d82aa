/**
 * What `<plugin>` names on the command line: a plugin folder, a manifest file, or the id of an
 * installed (or bundled) plugin. A path runs the plugin as it is, its manifest's capabilities as
 * its allow-list; an id goes through the registry, with the user's exposure, grants and settings.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { requestedCapabilities } from '../../shared/capabilities';
import { failure, type Failure } from '../../shared/failures';
import type { Event } from '../../shared/lifecycle';
import type { HealthEvent, LogEvent } from '../../shared/model';
import { DataPaths, defaultDataDir, describeManifestErrors, loadManifest, PluginHost, PluginRegistry, type CallHandle, type CallOptions, type SettingValue } from '../host';
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
  id: string;
  warnings: string[];
  onDidChangeHealth: Event<HealthEvent>;
  onDidLog: Event<LogEvent>;
  call(tool: string, args: Record<string, unknown>, opts: CallOptions): CallHandle;
  input(text: string, opts: CallOptions): CallHandle;
  endPassthrough(reason: string): void;
  shutdown(): Promise<void>;
}

export async function openCallTarget(arg: string, dataDir: string, settings: Record<string, SettingValue> = {}): Promise<CallTarget | Failure> {
  if (looksLikePath(arg)) {
    const m = loadManifest(arg);
    if (!m.ok) return failure('launch_failed', `invalid plugin manifest ${describeManifestErrors(m)}`);
    const spec = m.spec;
    const host = new PluginHost();
    // A plugin run from a path: its manifest (and protocol) are its allow-list.
    const env = new DataPaths(dataDir).pluginEnv(spec.id, spec.dir, nodeModulesDir());
    await host.add(spec, { binding: { plan: await host.plan(spec, settings, env), allowedCapabilities: requestedCapabilities(spec) } });
    return {
      id: spec.id,
      warnings: m.warnings,
      onDidChangeHealth: host.onDidChangeHealth,
      onDidLog: host.onDidLog,
      call: (t, a, o) => host.call(spec.id, t, a, o),
      input: (t, o) => host.input(spec.id, t, o),
      endPassthrough: (reason) => host.endPassthrough(spec.id, reason),
      shutdown: () => host.shutdown(),
    };
  }
  const registry = await PluginRegistry.open({ dataDir, bundledDir: bundledPluginsDir(), nodeModules: nodeModulesDir() });
  const rec = registry.record(arg);
  if (!rec?.spec) {
    await registry.shutdown();
    const known = registry.list().map((r) => r.id);
    if (rec?.error) return failure('launch_failed', `${arg} could not be loaded: ${rec.error}`);
    return failure('not_found', `no plugin folder or manifest at "${arg}", and no installed plugin with that id (installed and bundled: ${known.join(', ') || 'none'}; data directory ${dataDir})`);
  }
  return {
    id: arg,
    warnings: rec.warnings,
    onDidChangeHealth: registry.onDidChangeHealth,
    onDidLog: registry.onDidLog,
    call: (t, a, o) => registry.call(arg, t, a, o),
    input: (t, o) => registry.input(arg, t, o),
    endPassthrough: (reason) => registry.endPassthrough(arg, reason),
    shutdown: () => registry.shutdown(),
  };
}
