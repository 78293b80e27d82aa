/**
 * What most protocol sessions do alike: keep their context, log a line of junk on stdout and carry
 * on (print debugging happens; only strict protocols die of it, and they override `junk`), and
 * say no goodbye beyond closing stdin unless the protocol has one.
 */
import type { Failure } from '../../../shared/failures';
import type { SessionContext } from './types';

export abstract class SessionBase {
  constructor(protected readonly ctx: SessionContext) {}

  junk(text: string, reason: string): Failure | undefined {
    const what = this.ctx.spec.framing === 'length-prefixed' ? 'frame' : 'line';
    this.ctx.diagnostic('warn', `stdout ${what} ignored (${reason}): ${text}`);
    return undefined;
  }

  farewell(): void {
    // Closing stdin is the goodbye.
  }
}
