/**
 * The app's back end as the CLI runs it: the plugin registry of a data directory (bundled plugins
 * included) and the contract's Backend over it, the same pair the desktop app builds, so
 * `plugboard serve`, `chat`, `plugins` and `models` run the same commands, assistant, approvals
 * and store as the app. `close` stops every plugin the registry started: no process outlives the command.
 */
import type { AppInfo } from '../../shared/contract';
import { PluginRegistry } from '../plugins';
import type { McpLaunch } from '../../shared/mcp-clients';
import { Backend, type BackendOptions } from '../service';
import { bundledPluginsDir, dataDirOf, nodeModulesDir } from './target';

export interface OpenedBackend {
  registry: PluginRegistry;
  backend: Backend;
  /** Disposes the back end (ending any turn still running), then stops every plugin. */
  close(): Promise<void>;
}

export interface OpenBackendOptions {
  dataDir: string | undefined;
  /** Start enabled persistent plugins at once, as the app does. */
  autostart: boolean;
  transport: AppInfo['transport'];
  uploadsDir?: string;
  /** `when-needed`: the conversations open on the first command that needs them (Backend). */
  conversations?: BackendOptions['conversations'];
  /** Show other apps' calls waiting for approval (serve). */
  approvalInbox?: boolean;
  /** How `plugboard mcp` runs from here, for Settings' snippets. */
  mcpLaunch?: McpLaunch;
}

export async function openBackend(opts: OpenBackendOptions): Promise<OpenedBackend> {
  const registry = await PluginRegistry.open({
    dataDir: dataDirOf(opts.dataDir),
    bundledDir: bundledPluginsDir(),
    nodeModules: nodeModulesDir(),
    autostart: opts.autostart,
  });
  let backend: Backend;
  try {
    backend = await Backend.create({
      registry,
      version: process.env.npm_package_version ?? '0.1.0',
      transport: opts.transport,
      ...(opts.uploadsDir ? { uploadsDir: opts.uploadsDir } : {}),
      ...(opts.conversations ? { conversations: opts.conversations } : {}),
      ...(opts.approvalInbox ? { approvalInbox: true } : {}),
      ...(opts.mcpLaunch ? { mcpLaunch: opts.mcpLaunch } : {}),
    });
  } catch (e) {
    // Another Plugboard holds the conversation store, say: stop what autostart began.
    await registry.shutdown();
    registry.dispose();
    throw e;
  }
  let closing: Promise<void> | undefined;
  return {
    registry,
    backend,
    close: () =>
      (closing ??= (async () => {
        backend.dispose();
        await registry.shutdown();
        registry.dispose();
      })()),
  };
}

/**
 * The back end for a one-shot command that changes or reads the plugins or the models
 * (`plugboard plugins`, `models`): no plugin started, the conversations closed until a command
 * needs them, so it works while the app or `plugboard serve` holds the data directory.
 */
export function openForCommand(dataDir: string | undefined): Promise<OpenedBackend> {
  return openBackend({ dataDir, autostart: false, transport: 'ipc', conversations: 'when-needed' });
}
