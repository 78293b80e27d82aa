/**
 * The WebSocket transport does not send a long output twice: a client that was sent a message's
 * `start` holds its text from the stream pieces after it, so the message's `end` reaches it
 * without the text (`textStreamed`); a client that came in later, or a short text, gets the whole
 * message as before. The backend here is an event source standing in for the service: what is
 * tested is the transport, over a real HTTP server and real WebSocket clients.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { attachWebSocketApi, ELIDE_STREAMED_TEXT_CHARS } from '../../src/main/server/websocket';
import type { Backend } from '../../src/main/service';
import type { ChatMessage, TurnEvent, WsServerMessage } from '../../src/shared/contract';
import { Emitter, type IDisposable } from '../../src/shared/lifecycle';

let http: Server;
let api: IDisposable;
const events = new Emitter<{ name: string; payload: unknown }>();

afterEach(async () => {
  api?.dispose();
  await new Promise((r) => http.close(r));
});

async function serve(): Promise<number> {
  http = createServer();
  const backend = { onDidEvent: events.event, answer: async () => ({ ok: true, value: null }) } as unknown as Backend;
  api = attachWebSocketApi(http, { backend, access: { sameSite: () => true, tokenOk: () => true }, log: () => {} });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return (http.address() as AddressInfo).port;
}

/** A connected client and the turn events it received, in order. */
async function client(port: number): Promise<{ turns: TurnEvent[]; ws: WebSocket }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=t`);
  const turns: TurnEvent[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(String(d)) as WsServerMessage;
    if (m.kind === 'event' && m.name === 'chat.turn') turns.push(m.payload as TurnEvent);
  });
  await new Promise((r) => ws.once('open', r));
  return { turns, ws };
}

const message = (text: string, status: ChatMessage['status']): ChatMessage =>
  ({ id: 'm1', role: 'plugin', text, status, turnId: 't1', createdAt: 0 }) as ChatMessage;

function turn(e: TurnEvent): void {
  events.fire({ name: 'chat.turn', payload: e });
}

/** Waits until `c` has received `n` turn events (the test's timeout is the deadline). */
async function received(c: { turns: TurnEvent[]; ws: WebSocket }, n: number): Promise<void> {
  while (c.turns.length < n) await new Promise((r) => c.ws.once('message', r));
}

describe('the end of a long streamed message over WebSocket', () => {
  // Over the threshold on its own.
  const piece = 'line\n'.repeat(Math.ceil(ELIDE_STREAMED_TEXT_CHARS / 5) + 1);
  const ids = { conversationId: 'c1', turnId: 't1' };

  it('reaches a client that streamed it without the text, and a later client with it', async () => {
    const port = await serve();
    const early = await client(port);
    turn({ type: 'start', ...ids, message: message('', 'streaming') });
    turn({ type: 'stream', ...ids, messageId: 'm1', text: piece });
    await received(early, 2);
    const late = await client(port);
    turn({ type: 'stream', ...ids, messageId: 'm1', text: piece });
    turn({ type: 'end', ...ids, message: message(piece + piece, 'done') });
    await received(early, 4);
    await received(late, 2);

    const earlyEnd = early.turns[3];
    expect(earlyEnd).toMatchObject({
      type: 'end',
      textStreamed: true,
      message: { id: 'm1', status: 'done', text: '' },
    });
    // What it streamed is the text.
    const streamed = early.turns.flatMap((e) => (e.type === 'stream' ? [e.text] : [])).join('');
    expect(streamed).toBe(piece + piece);

    const lateEnd = late.turns[1];
    expect(lateEnd).toMatchObject({ type: 'end', message: { text: piece + piece } });
    expect(lateEnd).not.toHaveProperty('textStreamed');
    early.ws.close();
    late.ws.close();
  });

  it('carries a short text to every client, and a second end (a rewrite) in full', async () => {
    const port = await serve();
    const c = await client(port);
    turn({ type: 'start', ...ids, message: message('', 'streaming') });
    turn({ type: 'stream', ...ids, messageId: 'm1', text: 'short' });
    turn({ type: 'end', ...ids, message: message('short', 'done') });
    await received(c, 3);
    expect(c.turns[2]).toMatchObject({ type: 'end', message: { text: 'short' } });
    expect(c.turns[2]).not.toHaveProperty('textStreamed');

    turn({ type: 'start', ...ids, message: message('', 'streaming') });
    turn({ type: 'stream', ...ids, messageId: 'm1', text: piece });
    turn({ type: 'end', ...ids, message: message(piece, 'done') });
    turn({ type: 'end', ...ids, message: message(piece, 'done') });
    await received(c, 7);
    expect(c.turns[5]).toMatchObject({ textStreamed: true, message: { text: '' } });
    expect(c.turns[6]).toMatchObject({ message: { text: piece } });
    c.ws.close();
  });
});
