/**
 * The contract's two transports refuse alike: a command the contract does not declare, or an input
 * its schema does not pass, fails with the same code and the same words over Electron IPC and over
 * WebSocket, and the window reads both the same way (a FailureError, code intact).
 *
 * The WebSocket side is real (`plugboard serve` on a free port, a real client). Electron cannot
 * run here, so IPC is the app's own binding (ipc/handle.ts) over a stand-in for `ipcMain` that
 * keeps the handler it registers; the handler is then called as Electron calls it, from the app's
 * window and top frame.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { unwrapAnswer, type Answer, type WsServerMessage } from '../../src/shared/contract';
import { FailureError } from '../../src/shared/failures';
import { parseServerMessage } from '../../src/renderer/src/api/wire';
import { cleanupFixtures } from '../helpers/plugins';
import { serveApp, type ServedApp } from '../helpers/app';

const ipc = vi.hoisted(() => ({ handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>() }));
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, fn: (event: unknown, ...args: unknown[]) => unknown) => ipc.handlers.set(channel, fn),
    removeHandler: (channel: string) => ipc.handlers.delete(channel),
  },
}));

const { bindContract } = await import('../../src/main/ipc/handle');
const { IPC_INVOKE } = await import('../../src/shared/contract');

let app: ServedApp;
let ws: WebSocket;
let unbind: { dispose(): void };
const frame = { url: 'app://plugboard/index.html' };
const webContents = { mainFrame: frame, send: () => undefined };

beforeAll(async () => {
  app = await serveApp('transports');
  const window = { webContents, isDestroyed: () => false };
  unbind = bindContract(
    app.backend,
    () => window as never,
    (url) => url === frame.url,
  );
  ws = new WebSocket(`ws://127.0.0.1:${app.server.port}/ws?token=${app.server.token}`, {
    origin: `http://127.0.0.1:${app.server.port}`,
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
});

afterAll(async () => {
  ws.close();
  unbind.dispose();
  await app.close();
  cleanupFixtures();
});

/** The answer over IPC, as Electron hands the handler a call from the app's window. */
async function overIpc(name: unknown, input: unknown): Promise<Answer> {
  const handler = ipc.handlers.get(IPC_INVOKE);
  if (!handler) throw new Error('the IPC binding registered no handler');
  return (await handler({ sender: webContents, senderFrame: frame }, name, input)) as Answer;
}

let nextId = 0;
/** The answer over WebSocket: the raw frame, read as the web UI reads it. */
function overWebSocket(name: unknown, input: unknown): Promise<Answer> {
  const id = ++nextId;
  return new Promise((resolve) => {
    const onMessage = (raw: WebSocket.RawData): void => {
      const m = parseServerMessage(String(raw)) as WsServerMessage | null;
      if (m?.kind !== 'result' || m.id !== id) return;
      ws.off('message', onMessage);
      const { kind: _kind, id: _id, ...answer } = m;
      resolve(answer as Answer);
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ kind: 'invoke', id, name, input }));
  });
}

describe('the contract over IPC and over WebSocket', () => {
  it.each([
    ['an unknown command', 'plugins.nuke', {}, 'unknown command "plugins.nuke"'],
    [
      'a field of the wrong type',
      'plugins.setEnabled',
      { id: 'hello', enabled: 'yes' },
      'plugins.setEnabled: enabled: Invalid input: expected boolean, received string',
    ],
    [
      'an empty message',
      'chat.send',
      { conversationId: 'c', text: '  ' },
      'chat.send: text: empty: type a message or attach a file',
    ],
    [
      'a field the command does not take',
      'plugins.list',
      { all: true },
      'plugins.list: input: Unrecognized key: "all"',
    ],
  ])('refuses %s with the same code and words', async (_what, name, input, message) => {
    const [ipcAnswer, wsAnswer] = await Promise.all([overIpc(name, input), overWebSocket(name, input)]);
    expect(ipcAnswer).toEqual({ ok: false, code: 'invalid_input', message });
    expect(wsAnswer).toEqual(ipcAnswer);
    // The window unwraps either into the same thrown failure.
    for (const a of [ipcAnswer, wsAnswer]) {
      const thrown = (() => {
        try {
          unwrapAnswer(a);
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(thrown).toBeInstanceOf(FailureError);
      expect((thrown as FailureError).failure).toEqual({ ok: false, code: 'invalid_input', message });
    }
  });

  it('answers a good command the same way on both', async () => {
    const [ipcAnswer, wsAnswer] = await Promise.all([overIpc('app.info', {}), overWebSocket('app.info', {})]);
    expect(ipcAnswer).toEqual({ ok: true, value: expect.objectContaining({ version: 'test' }) });
    expect(wsAnswer).toEqual(ipcAnswer);
  });

  it('refuses a call from another frame over IPC, before any command runs', async () => {
    const handler = ipc.handlers.get(IPC_INVOKE);
    expect(() =>
      handler?.({ sender: webContents, senderFrame: { url: 'https://elsewhere.example' } }, 'app.info', {}),
    ).toThrow(/did not come from the Plugboard window/);
  });
});
