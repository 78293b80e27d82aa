/**
 * A plugin's side of what its MCP server asks (asks.ts): the supervisor names the plugin and the
 * conversation of its running call, and while a person (or a model) is answering, the calls'
 * deadlines stand still: the server waits on the host then, not the other way round.
 */
import { Emitter } from '../../../shared/lifecycle';
import { NOBODY_TO_ASK, type ClientSide, type ServerAsks } from '../asks';
import type { CallRunner } from './call-runner';

export type CatalogKind = 'prompts' | 'resources';

export class PluginClientSide implements Omit<ClientSide, 'roots'> {
  private readonly _onDidChangeCatalog = new Emitter<CatalogKind>();
  readonly onDidChangeCatalog = this._onDidChangeCatalog.event;
  /** Requests being answered: the calls are held while any is. */
  private answering = 0;

  constructor(
    private readonly pluginId: string,
    private readonly runner: CallRunner,
    private readonly asks: () => ServerAsks | undefined,
  ) {}

  elicit: ClientSide['elicit'] = (req) => this.held(() => (this.asks() ?? NOBODY_TO_ASK).elicit({ ...req, pluginId: this.pluginId, conversationId: this.runner.latestOwner() }));

  sample: ClientSide['sample'] = (req) => this.held(() => (this.asks() ?? NOBODY_TO_ASK).sample({ ...req, pluginId: this.pluginId, conversationId: this.runner.latestOwner() }));

  catalogChanged = (kind: CatalogKind): void => this._onDidChangeCatalog.fire(kind);

  private async held<T>(fn: () => Promise<T>): Promise<T> {
    if (this.answering++ === 0) this.runner.holdAll(true);
    try {
      return await fn();
    } finally {
      if (--this.answering === 0) this.runner.holdAll(false);
    }
  }

  dispose(): void {
    this._onDidChangeCatalog.dispose();
  }
}
