/**
 * A plugin's side of what its MCP server asks (asks.ts): the supervisor names the plugin and the
 * conversation of its running call, and while a person (or a model) is answering, the calls'
 * deadlines stand still: the server waits on the host then, not the other way round.
 */
import { Emitter } from '../../../shared/lifecycle';
import { NOBODY_TO_ASK, type ClientSide, type ServerAsks } from '../asks';
import type { CallRunner } from './call-runner';

export type FeatureKind = 'prompts' | 'resources';

export class PluginClientSide implements Omit<ClientSide, 'roots'> {
  private readonly _onDidChangeFeatures = new Emitter<FeatureKind>();
  readonly onDidChangeFeatures = this._onDidChangeFeatures.event;
  /** Requests being answered: the calls are held while any is. */
  private answering = 0;

  constructor(
    private readonly pluginId: string,
    private readonly runner: CallRunner,
    private readonly asks: () => ServerAsks | undefined,
  ) {}

  elicit: ClientSide['elicit'] = (req) =>
    this.held(req.signal, (conversationId, signal) =>
      (this.asks() ?? NOBODY_TO_ASK).elicit({ ...req, pluginId: this.pluginId, conversationId, signal }),
    );

  sample: ClientSide['sample'] = (req) =>
    this.held(req.signal, (conversationId, signal) =>
      (this.asks() ?? NOBODY_TO_ASK).sample({ ...req, pluginId: this.pluginId, conversationId, signal }),
    );

  featuresChanged = (kind: FeatureKind): void => this._onDidChangeFeatures.fire(kind);

  /**
   * Runs the answer with the calls held. Its signal aborts when the server withdraws the request,
   * and also when the conversation's calls have all ended (stopped, failed): a question asked for
   * a call that is gone must not wait on the screen.
   */
  private async held<T>(
    serverSignal: AbortSignal,
    fn: (conversationId: string | undefined, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const conversationId = this.runner.latestOwner();
    const ac = new AbortController();
    const abort = (): void => ac.abort();
    serverSignal.addEventListener('abort', abort, { once: true });
    const off =
      conversationId === undefined
        ? () => true
        : this.runner.onCallEnded(() => !this.runner.hasCallsOf(conversationId) && abort());
    if (this.answering++ === 0) this.runner.holdAll(true);
    try {
      return await fn(conversationId, ac.signal);
    } finally {
      off();
      serverSignal.removeEventListener('abort', abort);
      if (--this.answering === 0) this.runner.holdAll(false);
    }
  }

  dispose(): void {
    this._onDidChangeFeatures.dispose();
  }
}
