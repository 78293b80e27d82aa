/**
 * One turn of `plugboard chat` on the back end: the text goes in as the contract's `chat.send`,
 * as the app's composer sends it (with the --approve flag as its `approve`), and the turn is
 * followed through the Backend's `chat.turn` events until the back end says it stopped running,
 * with the tokens it took. Events that arrive before `send` names the turn are kept and read once
 * it does, so nothing of the turn is missed however fast it goes.
 */
import type { TokenUsage } from '../../../shared/assistant';
import type { TurnEvent } from '../../../shared/contract';
import { failure, type Failure } from '../../../shared/failures';
import type { Backend } from '../../service';
import { TurnLines, type TurnSink } from './turn-lines';

export interface TurnRequest {
  backend: Backend;
  conversationId: string;
  text: string;
  /** --approve all|none; undefined: calls that ask wait for the person. */
  flag: 'all' | 'none' | undefined;
  /** No terminal: the model's questions are answered at once that the user is not available. */
  unattended: boolean;
  sink: TurnSink;
  /** The turn has its id: Ctrl-C can stop it from now on. */
  started(turnId: string): void;
  /** Stops waiting for the turn (the person quit); the back end's close ends the turn itself. */
  quit: AbortSignal;
}

export type TurnResult =
  { ok: true; text: string; usage: TokenUsage | null } | (Failure & { usage: TokenUsage | null });

export async function runTurn(r: TurnRequest): Promise<TurnResult> {
  const lines = new TurnLines(r.sink);
  const early: TurnEvent[] = [];
  let turnId: string | null = null;
  let usage: TokenUsage | null = null;
  let ended!: () => void;
  const over = new Promise<void>((resolve) => (ended = resolve));
  const read = (e: TurnEvent): void => {
    if (e.turnId !== turnId) return;
    if (e.type === 'turn') {
      if (e.running) return;
      usage = e.usage ?? null;
      ended();
      return;
    }
    lines.event(e);
  };
  const sub = r.backend.onDidEvent((e) => {
    if (e.name !== 'chat.turn' || e.payload.conversationId !== r.conversationId) return;
    if (turnId === null) early.push(e.payload);
    else read(e.payload);
  });
  try {
    const sent = await r.backend.request('chat.send', {
      conversationId: r.conversationId,
      text: r.text,
      ...(r.flag ? { approve: r.flag } : {}),
      ...(r.unattended ? { unattended: true } : {}),
    });
    if (!sent.ok) return { ...sent, usage };
    // The conversation has no model after all (removed meanwhile): the back end left a note.
    if (sent.turnId === null)
      return { ...failure('no_model', 'no model is configured: add one with `plugboard models add`'), usage };
    turnId = sent.turnId;
    r.started(turnId);
    for (const e of early.splice(0)) read(e);
    if (r.quit.aborted) ended();
    r.quit.addEventListener('abort', ended);
    await over;
    if (r.quit.aborted)
      return { ...failure('cancelled', 'interrupted: the turn was stopped, and the command quit'), usage };
  } finally {
    sub.dispose();
    r.quit.removeEventListener('abort', ended);
  }
  const outcome = lines.outcome();
  return { ...outcome, usage };
}
