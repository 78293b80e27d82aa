/**
 * When what Plugboard offers another app changes, so that its sessions send `list_changed`: a
 * plugin installed, removed, enabled or disabled, a tool switched on or off, a plugin's tool list
 * changing as it runs, a hosted MCP server's prompts or resources changing. In this process the
 * registry says so; another process on the same data folder (the app, `plugboard plugins`,
 * another MCP server) writes the decisions file or the plugin folders, which are watched: the
 * registry then catches up with the disk (syncWithDisk) and the offer is compared again.
 *
 * A notification goes out only when the offer really changed: the tools as listed are compared
 * with the last ones seen, and the set of MCP servers whose prompts and resources are offered.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { Disposable, Emitter, toDisposable } from '../../shared/lifecycle';
import type { PluginRegistry } from '../plugins';
import type { HostedFeatures } from './features';
import { offeredTools } from './tool-list';

export type OfferKind = 'tools' | 'prompts' | 'resources';

/** Changes on disk come in bursts (a temp file, then its rename): they are read once the burst is over. */
const SETTLE_MS = 30;

export class ChangeFeed extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<OfferKind>());
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidSync = this._register(new Emitter<string[]>());
  /** Plugins another process installed, changed or removed, once the registry caught up (their ids). */
  readonly onDidSync = this._onDidSync.event;
  private tools: string;
  private servers: string;
  private pluginsWatcher: FSWatcher | undefined;
  private settling: NodeJS.Timeout | undefined;
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    private readonly registry: PluginRegistry,
    private readonly features: HostedFeatures,
    private readonly log: (line: string) => void,
  ) {
    super();
    this.tools = this.toolsNow();
    this.servers = this.serversNow();
    this._register(registry.onDidChange(() => this.compare()));
    this._register(registry.onDidChangeTools(() => this.compare()));
    this._register(registry.onDidChangeFeatures(({ kind }) => this._onDidChange.fire(kind)));
    const root = registry.paths.root;
    this.watch(root, (name) => {
      if (name === 'plugins') this.watchPlugins();
      if (name === null || name === 'state.json' || name === 'plugins') this.onDisk();
    });
    this.watchPlugins();
    this._register(
      toDisposable(() => {
        this.pluginsWatcher?.close();
        if (this.settling) clearTimeout(this.settling);
      }),
    );
  }

  /** Compares the offer with the last one seen, and says what changed. */
  compare(): void {
    if (this.isDisposed) return;
    const tools = this.toolsNow();
    if (tools !== this.tools) {
      this.tools = tools;
      this._onDidChange.fire('tools');
    }
    const servers = this.serversNow();
    if (servers !== this.servers) {
      this.servers = servers;
      this._onDidChange.fire('prompts');
      this._onDidChange.fire('resources');
    }
  }

  /** Waits until the changes on disk seen so far are taken in (tests, and an orderly close). */
  settled(): Promise<void> {
    return this.syncing;
  }

  private toolsNow(): string {
    return JSON.stringify(offeredTools(this.registry).tools);
  }

  private serversNow(): string {
    return this.features.servers().join('\n');
  }

  private onDisk(): void {
    if (this.settling) clearTimeout(this.settling);
    this.settling = setTimeout(() => {
      this.settling = undefined;
      this.syncing = this.syncing.then(async () => {
        if (this.isDisposed) return;
        try {
          const changed = await this.registry.syncWithDisk();
          if (changed.length > 0) this._onDidSync.fire(changed);
        } catch (e) {
          this.log(`reading the plugins folder again failed: ${(e as Error).message}`);
        }
        this.compare();
      });
    }, SETTLE_MS);
  }

  private watchPlugins(): void {
    const dir = this.registry.paths.plugins;
    if (this.pluginsWatcher || !existsSync(dir)) return;
    this.pluginsWatcher = this.watch(dir, () => this.onDisk(), false);
  }

  private watch(dir: string, onChange: (name: string | null) => void, register = true): FSWatcher | undefined {
    try {
      const w = watch(dir, { persistent: false }, (_event, name) => onChange(name ? path.basename(name) : null));
      w.on('error', (e) => {
        this.log(
          `watching ${dir} stopped: ${e.message}; changes other processes make there are seen only after a restart`,
        );
        w.close();
        if (w === this.pluginsWatcher) this.pluginsWatcher = undefined;
      });
      if (register) this._register(toDisposable(() => w.close()));
      return w;
    } catch (e) {
      this.log(
        `cannot watch ${dir} (${(e as Error).message}): changes other processes make there are seen only after a restart`,
      );
      return undefined;
    }
  }
}
