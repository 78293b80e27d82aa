/**
 * Which turns are running, as the server frames them. Every turn (a plugin call, passthrough
 * input, a model's whole turn with its tool calls and prompts) is announced by `turn` events:
 * `running: true` before anything of it, `running: false` after its last message ended. A
 * conversation's snapshot (`chat.get`) lists the turns running at that moment (`runningTurns`),
 * which is the truth after a reconnect or for a conversation opened late.
 *
 * Frames rather than messages: a model's turn runs while no message of it streams (the model
 * thinks before its first token, a prompt waits, the next step is asked for), and Stop must reach
 * it all that time.
 *
 * The index is keyed by turn, not kept per conversation: a conversation that is not loaded still
 * shows that it runs (its events carry the conversation). Every function returns the index it was
 * given when nothing changed, so a store update that does not touch it does not re-render what
 * selects it.
 */

/** Running turns: turn id → its conversation. */
export type RunningIndex = Readonly<Record<string, string>>;

export const NO_RUNNING: RunningIndex = Object.freeze({});

/** After a `turn` event. */
export function withFrame(index: RunningIndex, conversationId: string, turnId: string, running: boolean): RunningIndex {
  if (running) {
    if (index[turnId] === conversationId) return index;
    return { ...index, [turnId]: conversationId };
  }
  if (!(turnId in index)) return index;
  const out = { ...index };
  delete out[turnId];
  return out;
}

/** After a snapshot of `conversationId`: its running turns become exactly `turns`. */
export function withSnapshot(index: RunningIndex, conversationId: string, turns: readonly string[]): RunningIndex {
  const kept = withoutConversation(index, conversationId);
  if (turns.length === 0) return kept === index ? index : kept;
  const next: Record<string, string> = { ...kept };
  for (const t of turns) next[t] = conversationId;
  return sameEntries(index, next) ? index : next;
}

/** A conversation the page let go of (deleted, or forgotten after a reconnect). */
export function withoutConversation(index: RunningIndex, conversationId: string): RunningIndex {
  return only(index, (c) => c !== conversationId);
}

/** Keeps only the turns of the conversations `keep` accepts. */
export function only(index: RunningIndex, keep: (conversationId: string) => boolean): RunningIndex {
  let out: Record<string, string> | null = null;
  for (const [turn, c] of Object.entries(index)) {
    if (keep(c)) continue;
    out ??= { ...index };
    delete out[turn];
  }
  return out ?? index;
}

/** The conversation's running turns, each once, in the order they started. */
export function runningTurns(index: RunningIndex, conversationId: string): string[] {
  return Object.keys(index).filter((t) => index[t] === conversationId);
}

export function hasRunningTurn(index: RunningIndex, conversationId: string): boolean {
  for (const c of Object.values(index)) if (c === conversationId) return true;
  return false;
}

/** Whether any turn runs, in any conversation (the perf probe times frames meanwhile). */
export function anyRunning(index: RunningIndex): boolean {
  return Object.keys(index).length > 0;
}

function sameEntries(a: RunningIndex, b: RunningIndex): boolean {
  const keys = Object.keys(b);
  if (Object.keys(a).length !== keys.length) return false;
  return keys.every((k) => a[k] === b[k]);
}
