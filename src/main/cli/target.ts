/**
 * What `<plugin>` names on the command line: a plugin folder, a manifest file, or the id of an
 * installed (or bundled) plugin. Written as a path (`./x`, `/x`, `a/b`), it is a folder or file;
 * a bare name is the installed plugin of that id, and a folder of that name in the working
 * directory only when no plugin has that id (a stray folder must not shadow what is installed).
 * A path runs the plugin in the sandbox it gets once installed (as `plugboard check` does),
 * granted what its manifest requests; an id goes through the registry, with the person's
 * exposure, grants and settings.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { requestedCapabilities } from '../../shared/capabilities';
import { failure, type Failure } from '../../shared/failures';
import type { Event } from '../../shared/lifecycle';
import type { HealthEvent, LogEvent } from '../../shared/plugin';
import {
  appReadOnlyFolders,
  coerceSettings,
  DataPaths,
  defaultDataDir,
  describeManifestErrors,
  loadManifest,
  PluginHost,
  PluginRegistry,
  type CallHandle,
  type CallOptions,
  type SettingValue,
} from '../plugins';
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

/** How another app runs `plugboard mcp` on `dataDir` from this checkout: this Node and the bin script, absolute. */
export function cliMcpLaunch(dataDir: string): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [path.join(packageRoot(), 'bin', 'plugboard.mjs'), 'mcp', '--data-dir', dataDir],
  };
}

/** Whether the argument is written as a path rather than a plugin id: `./x`, `../x`, `/x`, `a/b`, `~/x`. */
export function writtenAsPath(arg: string): boolean {
  return arg.includes('/') || arg.includes('\\') || arg.startsWith('.') || arg.startsWith('~') || path.isAbsolute(arg);
}

export interface TargetOptions {
  settings?: Record<string, SettingValue>;
  /** false: a plugin run from a path runs as it is, outside the sandbox (`--no-sandbox`). */
  sandbox?: boolean;
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

export async function openCallTarget(
  arg: string,
  dataDir: string,
  opts: TargetOptions = {},
): Promise<CallTarget | Failure> {
  if (writtenAsPath(arg)) return openFolder(arg, dataDir, opts);
  const registry = await PluginRegistry.open({
    dataDir,
    bundledDir: bundledPluginsDir(),
    nodeModules: nodeModulesDir(),
  });
  const rec = registry.record(arg);
  if (!rec?.spec) {
    await registry.shutdown();
    const known = registry.list().map((r) => r.id);
    if (rec?.error) return failure('manifest_invalid', `${arg} could not be loaded: ${rec.error}`);
    // No plugin has that id: a folder of that name here is what was meant.
    if (existsSync(arg)) return openFolder(arg, dataDir, opts);
    return failure(
      'not_found',
      `no installed plugin "${arg}", and no plugin folder or manifest at ${path.resolve(arg)} (installed and bundled: ${known.join(', ') || 'none'}; data directory ${dataDir})`,
    );
  }
  if (opts.settings && Object.keys(opts.settings).length > 0) {
    await registry.shutdown();
    return failure(
      'invalid_input',
      `--set is for a plugin run from a folder; ${arg} is installed and runs with its own settings: plugboard plugins config ${arg} KEY=VALUE`,
    );
  }
  return {
    id: arg,
    warnings: rec.warnings,
    onDidChangeHealth: registry.onDidChangeHealth,
    onDidLog: registry.onDidLog,
    call: (t, a, o) => registry.call(arg, t, a, o),
    input: (t, o) => registry.input(arg, t, o),
    endPassthrough: (reason) => registry.host.endPassthrough(arg, reason),
    shutdown: () => registry.shutdown(),
  };
}

/** A plugin from a folder or manifest: its manifest's capabilities are its allow-list and its grants. */
async function openFolder(arg: string, dataDir: string, opts: TargetOptions): Promise<CallTarget | Failure> {
  const m = loadManifest(arg);
  if (!m.ok) return failure('manifest_invalid', `invalid plugin manifest ${describeManifestErrors(m)}`);
  const spec = m.spec;
  // A setting it does not declare, or a value of the wrong type, is an error, not ignored.
  const given = coerceSettings(spec.id, spec.settings, opts.settings ?? {});
  if (!given.ok) return failure('invalid_input', `--set ${given.message}`);
  const settings = Object.fromEntries(
    Object.entries(given.values).filter((e): e is [string, SettingValue] => e[1] !== null),
  );
  const host = new PluginHost();
  const paths = new DataPaths(dataDir);
  const env = paths.pluginEnv(spec, nodeModulesDir());
  const granted = requestedCapabilities(spec);
  // Run as it will run once installed: sandboxed where the sandbox works, the data directory hidden.
  const sandbox =
    opts.sandbox === false
      ? undefined
      : {
          grants: granted,
          dataDir: paths.pluginData(spec.id),
          hiddenRoot: paths.root,
          extraReadOnly: appReadOnlyFolders({ bundledDir: bundledPluginsDir(), nodeModules: nodeModulesDir() }),
        };
  const plan = await host.plan(spec, settings, env, sandbox);
  await host.add(spec, { binding: { plan, allowedCapabilities: granted } });
  // A plugin that reaches outside its folder fails in the sandbox: the failure says where it ran.
  const sandboxed = 'file' in plan && plan.sandbox?.active === true;
  const told = (o: CallOptions): CallOptions =>
    sandboxed
      ? { ...o, onEvent: (e) => o.onEvent?.(e.type === 'error' ? { ...e, failure: withSandboxHint(e.failure) } : e) }
      : o;
  return {
    id: spec.id,
    warnings: m.warnings,
    onDidChangeHealth: host.onDidChangeHealth,
    onDidLog: host.onDidLog,
    call: (t, a, o) => host.call(spec.id, t, a, told(o)),
    input: (t, o) => host.input(spec.id, t, told(o)),
    endPassthrough: (reason) => host.endPassthrough(spec.id, reason),
    shutdown: () => host.shutdown(),
  };
}

const SANDBOX_HINT =
  'it ran in the sandbox it gets once installed, which shows it only its own folder, its data folder and the system folders (and no network unless granted); --no-sandbox runs it as it is';

function withSandboxHint(f: Failure): Failure {
  return f.code === 'launch_failed' || f.code === 'handshake_failed' || f.code === 'crashed'
    ? { ...f, message: `${f.message}\n${SANDBOX_HINT}` }
    : f;
}
