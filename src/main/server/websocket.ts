/**
 * The contract over WebSocket at `/ws`. A same-origin client with the right token gets the API:
 * `invoke` messages answered with `result`, and every backend event pushed as it happens. A
 * same-origin client with a wrong or missing token is told so with close code 4401 (a stale tab
 * after a restart can show that, where a refusal would look like a dead server), and nothing it
 * sends afterwards is read. Every socket has an error listener: a protocol error or an oversize
 * message from one client closes that client and is logged, and the server carries on.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import type { TurnEvent, WsClientMessage, WsServerMessage } from '../../shared/contract';
import type { IDisposable } from '../../shared/lifecycle';
import type { Backend } from '../service';
import { describeError, describeSize, requestUrl, type Access, type Log } from './http';

/** Close code for a WebSocket opened with a wrong token (4000-4999: application codes). */
export const WS_BAD_TOKEN = 4401;

/** The largest message a client may send. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** An ended message's text at least this long is not sent again to a client that streamed it. */
export const ELIDE_STREAMED_TEXT_CHARS = 64 * 1024;

/** A client that falls this far behind is disconnected (it reconnects and reloads its state). */
const MAX_BUFFERED = 64 * 1024 * 1024;

/** How long a refused client gets to answer our close frame before its connection is cut. */
const REFUSED_CLOSE_MS = 1000;

/**
 * ws answers a message over `maxPayload` by closing with 1009 and no reason (before it emits
 * 'error'); the page shows the reason, so give it one that names the limit.
 */
class ApiSocket extends WebSocket {
  override close(code?: number, data?: string | Buffer): void {
    super.close(
      code,
      code === 1009 && !data ? `message too large: the limit is ${describeSize(MAX_MESSAGE_BYTES)}` : data,
    );
  }
}

export interface WebSocketApiOptions {
  backend: Backend;
  access: Access;
  log: Log;
}

export function attachWebSocketApi(server: Server, opts: WebSocketApiOptions): IDisposable {
  const { backend, access, log } = opts;
  const api = new WebSocketServer<typeof ApiSocket>({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    WebSocket: ApiSocket,
  });
  // Nothing but a close frame is expected from a refused client, so its messages may be tiny.
  const refused = new WebSocketServer({ noServer: true, maxPayload: 125 });

  const onSocketError = (ws: WebSocket, who: string) => (e: Error) => {
    // ws emits 'error' at most once per socket and has already begun closing it; make sure.
    log(`plugboard serve: WebSocket ${who}: ${e.message}`);
    if (ws.readyState === ws.OPEN) ws.close(1011, 'server error');
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Until ws owns the socket nobody listens for its errors (node's HTTP server stops at 'upgrade').
    socket.on('error', () => socket.destroy());
    try {
      const url = requestUrl(req);
      if (!url || url.pathname !== '/ws' || !access.sameSite(req)) {
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        socket.once('finish', () => socket.destroy());
        return;
      }
      if (!access.tokenOk(url.searchParams.get('token'))) {
        refused.handleUpgrade(req, socket, head, (ws) => {
          ws.on('error', onSocketError(ws, 'client with a wrong token'));
          ws.close(WS_BAD_TOKEN, 'wrong or missing token: open the URL plugboard serve printed');
          // ws would wait 30 s for the client's close frame; a refused client gets much less.
          const cut = setTimeout(() => ws.terminate(), REFUSED_CLOSE_MS);
          ws.once('close', () => clearTimeout(cut));
        });
        return;
      }
      api.handleUpgrade(req, socket, head, (ws) => connected(ws));
    } catch (e) {
      log(`plugboard serve: WebSocket upgrade ${req.url}: ${describeError(e)}`);
      socket.destroy();
    }
  };
  server.on('upgrade', onUpgrade);

  const sendTo = (ws: WebSocket, text: string): void => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED) ws.close(1013, 'client too slow');
    else ws.send(text);
  };
  const reply = (ws: WebSocket, msg: WsServerMessage): void => sendTo(ws, JSON.stringify(msg));

  /** Per client, the live messages whose `start` it was sent: it holds their text from then on. */
  const following = new WeakMap<WebSocket, Set<string>>();
  const followed = (ws: WebSocket): Set<string> => {
    let ids = following.get(ws);
    if (!ids) following.set(ws, (ids = new Set()));
    return ids;
  };

  const events = backend.onDidEvent((e) => {
    // Made once, and only if some client gets it whole (a long end may go to none that way).
    let whole: string | null = null;
    const text = (): string =>
      (whole ??= JSON.stringify({ kind: 'event', name: e.name, payload: e.payload } satisfies WsServerMessage));
    const turn = e.name === 'chat.turn' ? (e.payload as TurnEvent) : null;
    if (turn?.type === 'start') for (const ws of api.clients) followed(ws).add(turn.message.id);
    if (turn?.type !== 'end' || turn.textStreamed) {
      for (const ws of api.clients) sendTo(ws, text());
      return;
    }
    // A long output's end, to a client that received all of its text as it streamed, goes
    // without the text: 2 MiB more to decode and parse at the end of a stream froze the page for
    // a tenth of a second (the keys typed meanwhile waited).
    const id = turn.message.id;
    let short: string | null = null;
    for (const ws of api.clients) {
      const ids = followed(ws);
      if (!ids.delete(id) || turn.message.text.length < ELIDE_STREAMED_TEXT_CHARS) {
        sendTo(ws, text());
        continue;
      }
      short ??= JSON.stringify({
        kind: 'event',
        name: 'chat.turn',
        payload: { ...turn, message: { ...turn.message, text: '' }, textStreamed: true },
      } satisfies WsServerMessage);
      sendTo(ws, short);
    }
  });

  async function handle(ws: WebSocket, raw: WebSocket.RawData): Promise<void> {
    let msg: WsClientMessage;
    try {
      msg = JSON.parse(String(raw)) as WsClientMessage;
    } catch {
      return;
    }
    if (msg?.kind !== 'invoke' || typeof msg.id !== 'number') return;
    reply(ws, { kind: 'result', id: msg.id, ...(await backend.answer(msg.name, msg.input)) });
  }

  function connected(ws: WebSocket): void {
    ws.on('error', onSocketError(ws, 'client'));
    ws.on('message', (raw) => {
      handle(ws, raw).catch((e: unknown) => log(`plugboard serve: WebSocket message: ${describeError(e)}`));
    });
  }

  return {
    dispose() {
      server.off('upgrade', onUpgrade);
      events.dispose();
      for (const ws of api.clients) ws.terminate();
      for (const ws of refused.clients) ws.terminate();
      api.close();
      refused.close();
    },
  };
}
