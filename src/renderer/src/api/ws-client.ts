/**
 * The WebSocket transport of the contract, for the web UI (`plugboard serve`). It implements the
 * same `PlugboardApi` as the preload, so nothing above this file knows which transport it has.
 *
 * Invokes made while disconnected wait for the connection (up to QUEUE_WAIT_MS); invokes already
 * sent when the connection drops fail at once, because the server may or may not have run them
 * and only the caller can decide whether to retry. The next open says whether any gave up
 * waiting, so the stores fetch again what they could not load, even on the first connection.
 */
import {
  unwrapAnswer,
  type CommandInput,
  type CommandName,
  type CommandOutput,
  type EventName,
  type Events,
  type PlugboardApi,
  type WsClientMessage,
} from '../../../shared/contract';
import { failure, FailureError } from '../../../shared/failures';
import type { ConnectionListener, ConnectionState } from './connection';
import { forgetToken } from './token';
import { parseServerMessage } from './wire';

/** The connection's own failures: the command did not reach Plugboard, or its answer did not come back. */
function disconnected(message: string): FailureError {
  return new FailureError(failure('disconnected', message));
}

/** The close code `plugboard serve` uses for a wrong or missing token. */
const WS_BAD_TOKEN = 4401;

const BACKOFF_MS = [300, 600, 1200, 2500, 5000, 10_000];
const QUEUE_WAIT_MS = 20_000;
/** A generous cap so a lost reply cannot leave a spinner forever. */
const RESULT_WAIT_MS = 120_000;

interface Pending {
  name: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

interface Queued extends Pending {
  message: WsClientMessage;
}

export class WsClient implements PlugboardApi {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly sent = new Map<number, Pending>();
  private queued: Queued[] = [];
  private readonly listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  private readonly stateListeners = new Set<ConnectionListener>();
  private state: ConnectionState = { status: 'connecting' };
  /** Invokes that gave up waiting for a connection since the last open. */
  private missed = 0;

  constructor(private readonly url: string) {
    window.addEventListener('online', () => this.retryNow());
    this.connect();
  }

  invoke<C extends CommandName>(name: C, input: CommandInput<C>): Promise<CommandOutput<C>> {
    return new Promise<CommandOutput<C>>((resolve, reject) => {
      const id = this.nextId++;
      const message: WsClientMessage = { kind: 'invoke', id, name, input };
      const entry = { name, resolve: resolve as (v: unknown) => void, reject };
      if (this.ws?.readyState === WebSocket.OPEN) {
        this.send(id, message, entry);
      } else {
        const timer = setTimeout(() => {
          this.queued = this.queued.filter((q) => q.message.id !== id);
          this.missed += 1;
          reject(
            disconnected(`Not connected to Plugboard: "${name}" was not sent. Is \`plugboard serve\` still running?`),
          );
        }, QUEUE_WAIT_MS);
        this.queued.push({ ...entry, message, timer });
      }
    });
  }

  on<E extends EventName>(name: E, listener: (payload: Events[E]) => void): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    const l = listener as (payload: unknown) => void;
    set.add(l);
    return () => set.delete(l);
  }

  getState(): ConnectionState {
    return this.state;
  }

  onState(listener: ConnectionListener): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  private send(id: number, message: WsClientMessage, entry: Omit<Pending, 'timer'>): void {
    const timer = setTimeout(() => {
      this.sent.delete(id);
      entry.reject(disconnected(`No answer from Plugboard to "${entry.name}" within ${RESULT_WAIT_MS / 1000} s.`));
    }, RESULT_WAIT_MS);
    this.sent.set(id, { ...entry, timer });
    this.ws?.send(JSON.stringify(message));
  }

  private connect(): void {
    this.retryTimer = null;
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url);
    } catch (e) {
      this.scheduleRetry(e instanceof Error ? e.message : 'could not open the connection');
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      const missed = this.missed > 0;
      this.missed = 0;
      this.setState({ status: 'open', missed });
      const queued = this.queued;
      this.queued = [];
      for (const q of queued) {
        clearTimeout(q.timer);
        this.send(q.message.id, q.message, q);
      }
    };
    ws.onmessage = (ev: MessageEvent) => this.receive(ev.data);
    ws.onclose = (ev: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (ev.code === WS_BAD_TOKEN) {
        // The server does not know this token (it was restarted): retrying cannot help.
        forgetToken();
        this.failSent('Plugboard refused this page’s token; open the URL plugboard serve printed.');
        this.setState({ status: 'no-token', restarted: true });
        return;
      }
      const reason = ev.reason || (ev.code === 1006 ? 'the connection was lost' : `closed (${ev.code})`);
      this.failSent(`The connection to Plugboard was lost (${reason}); the request may not have completed.`);
      this.scheduleRetry(reason);
    };
    // An error is always followed by close, which does the work.
    ws.onerror = () => undefined;
  }

  private receive(data: unknown): void {
    const msg = parseServerMessage(data);
    if (!msg) return;
    if (msg.kind === 'event') {
      const set = this.listeners.get(msg.name);
      if (!set) return;
      for (const l of set) {
        try {
          l(msg.payload);
        } catch (e) {
          // One faulty subscriber must not starve the others of events.
          console.error(e);
        }
      }
      return;
    }
    const p = this.sent.get(msg.id);
    if (!p) return;
    this.sent.delete(msg.id);
    clearTimeout(p.timer);
    // The same unwrapping as the desktop app's IPC: a refusal keeps its code and words.
    try {
      p.resolve(unwrapAnswer(msg));
    } catch (e) {
      p.reject(e as Error);
    }
  }

  private failSent(message: string): void {
    const sent = [...this.sent.values()];
    this.sent.clear();
    for (const p of sent) {
      clearTimeout(p.timer);
      p.reject(disconnected(message));
    }
  }

  private scheduleRetry(reason: string): void {
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)] ?? 10_000;
    // Jitter keeps several tabs from reconnecting in lockstep.
    const wait = Math.round(delay * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    this.setState({ status: 'reconnecting', attempt: this.attempt, retryAt: Date.now() + wait, reason });
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  /** Skips the back-off wait (the "Retry now" button, or the OS saying we are online again). */
  retryNow(): void {
    if (this.retryTimer === null) return;
    clearTimeout(this.retryTimer);
    this.connect();
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    for (const l of this.stateListeners) l(state);
  }
}
