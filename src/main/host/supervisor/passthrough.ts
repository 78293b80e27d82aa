/**
 * A plugin's passthrough session: whether one is open, who holds it (the conversation whose call
 * the plugin answered with keep_session), and its time cap. The only record of it: the chat asks
 * here which plugin a conversation talks to, and follows `onDidChange`.
 *
 * One session per plugin. A call from another conversation that keeps the session moves it there:
 * the change names both, so the conversation that lost it can say so.
 */
import { Disposable, Emitter, MutableDisposable, timeoutDisposable } from '../../../shared/lifecycle';

export interface PassthroughChange {
  pluginId: string;
  active: boolean;
  /** Who holds the session now (active) or held it (ended); undefined for calls with no owner. */
  owner: string | undefined;
  /** Set when the session moved from another owner. */
  previousOwner?: string | undefined;
  reason: string;
}

export class PassthroughSession extends Disposable {
  private holder: { owner: string | undefined } | null = null;
  private readonly cap = this._register(new MutableDisposable());
  private readonly _onDidChange = this._register(new Emitter<PassthroughChange>());
  readonly onDidChange = this._onDidChange.event;

  constructor(
    private readonly pluginId: string,
    private readonly capMs: number,
  ) {
    super();
  }

  get isOpen(): boolean {
    return this.holder !== null;
  }

  get owner(): string | undefined {
    return this.holder?.owner;
  }

  /** Opens the session for `owner`, or moves it there; the cap runs from the first opening. */
  open(owner: string | undefined, reason: string): void {
    const before = this.holder;
    if (before && before.owner === owner) return;
    this.holder = { owner };
    if (!before) this.cap.value = timeoutDisposable(() => this.end('session cap reached'), this.capMs);
    this._onDidChange.fire({
      pluginId: this.pluginId,
      active: true,
      owner,
      ...(before ? { previousOwner: before.owner } : {}),
      reason,
    });
  }

  /** Ends the session; returns whether one was open. */
  end(reason: string): boolean {
    const was = this.holder;
    if (!was) return false;
    this.holder = null;
    this.cap.clear();
    this._onDidChange.fire({ pluginId: this.pluginId, active: false, owner: was.owner, reason });
    return true;
  }
}
