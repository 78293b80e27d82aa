/**
 * A plugin's log lines (its stderr, what it logs through its protocol, the host's diagnostics
 * about it), rate-limited: past `perSecond` lines in a second the rest are counted, and the count
 * is logged once the second is over, so a flooding plugin cannot flood the UI.
 */
import { Disposable, Emitter } from '../../../shared/lifecycle';
import type { LogEvent, LogLevel, LogSource } from '../../../shared/plugin';
import { RateGate } from '../process/ring';

export class PluginLog extends Disposable {
  private readonly gate: RateGate;
  private readonly _onDidLog = this._register(new Emitter<LogEvent>());
  readonly onDidLog = this._onDidLog.event;

  constructor(
    private readonly pluginId: string,
    perSecond = 200,
  ) {
    super();
    this.gate = new RateGate(perSecond);
  }

  log(source: LogSource, level: LogLevel, message: string): void {
    const gate = this.gate.take();
    if (gate.suppressedBefore > 0) {
      this._onDidLog.fire({
        pluginId: this.pluginId,
        source: 'host',
        level: 'warn',
        message: `${gate.suppressedBefore} log lines suppressed (rate limit)`,
        at: Date.now(),
      });
    }
    if (gate.pass) this._onDidLog.fire({ pluginId: this.pluginId, source, level, message, at: Date.now() });
  }
}
