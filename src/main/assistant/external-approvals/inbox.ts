/**
 * The app's side of the approval channel (wire.ts): while the app (or `plugboard serve`) is open
 * it listens on the data folder's socket, and each call another app's MCP session asks about
 * waits here, as a card on the screen, until the person answers it, the asker withdraws it (its
 * own client's form was answered first, or the call was cancelled) or the asker goes away. The
 * answer goes back to the asker, which decides, runs and audits the call: nothing runs here.
 */
import { chmodSync, rmSync } from 'node:fs';
import net from 'node:net';
import { failure, type Outcome } from '../../../shared/failures';
import { Disposable, Emitter, toDisposable } from '../../../shared/lifecycle';
import type { ExternalApprovalView, ExternalDecision } from '../../../shared/external-approvals';
import { channelPath, line, Lines, parseToApp } from './wire';

export class ApprovalInbox extends Disposable {
  private readonly waiting = new Map<string, { view: ExternalApprovalView; socket: net.Socket }>();
  private readonly _onDidChange = this._register(new Emitter<ExternalApprovalView[]>());
  /** The waiting requests changed (one came, was answered, withdrawn, or its asker left). */
  readonly onDidChange = this._onDidChange.event;

  /** Why this inbox receives nothing (another Plugboard on the folder holds the channel), or undefined. */
  private why: string | undefined;

  private constructor() {
    super();
  }

  get inactive(): string | undefined {
    return this.why;
  }

  /** Listens on the channel of `dataDir`; an inbox that cannot (another one listens) says why in `inactive`. */
  static async open(dataDir: string): Promise<ApprovalInbox> {
    const file = channelPath(dataDir);
    const sockets = new Set<net.Socket>();
    const inbox = new ApprovalInbox();
    const server = net.createServer((socket) => {
      if (inbox.isDisposed) return socket.destroy();
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      inbox.receive(socket);
    });
    const why = await listen(server, file);
    inbox.why = why;
    if (why) {
      server.close();
      return inbox;
    }
    inbox._register(
      toDisposable(() => {
        server.close();
        for (const s of sockets) s.destroy();
        if (process.platform !== 'win32') rmSync(file, { force: true });
      }),
    );
    return inbox;
  }

  /** The requests waiting for the person, oldest first. */
  pending(): ExternalApprovalView[] {
    return [...this.waiting.values()].map((w) => w.view);
  }

  /** The person's answer; refused when the request no longer waits (answered elsewhere, withdrawn). */
  answer(id: string, decision: ExternalDecision): Outcome<{ detail: string }> {
    const w = this.waiting.get(id);
    if (!w)
      return failure(
        'invalid_state',
        'that request is no longer waiting: it was answered in the app that asked, or that app gave up',
      );
    this.waiting.delete(id);
    w.socket.write(line({ type: 'answer', id, decision }));
    this.changed();
    return { ok: true, detail: decision === 'once' ? 'allowed once' : 'denied' };
  }

  private receive(socket: net.Socket): void {
    const lines = new Lines();
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      let got: string[];
      try {
        got = lines.push(chunk);
      } catch {
        return void socket.destroy();
      }
      for (const l of got) {
        const m = parseToApp(l);
        // Anything else is not from a Plugboard: drop the connection rather than guess.
        if (!m) return void socket.destroy();
        if (m.type === 'ask') this.waiting.set(m.request.id, { view: m.request, socket });
        else if (this.waiting.get(m.id)?.socket === socket) this.waiting.delete(m.id);
        this.changed();
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      let gone = false;
      for (const [id, w] of this.waiting) if (w.socket === socket) gone = this.waiting.delete(id) || gone;
      if (gone) this.changed();
    });
  }

  private changed(): void {
    if (!this.isDisposed) this._onDidChange.fire(this.pending());
  }
}

/** Listens on the channel; a socket file left by a Plugboard that crashed is taken over. Answers why not, or undefined. */
async function listen(server: net.Server, file: string): Promise<string | undefined> {
  const attempt = (): Promise<NodeJS.ErrnoException | undefined> =>
    new Promise((resolve) => {
      server.once('error', resolve);
      server.listen(file, () => {
        server.off('error', resolve);
        resolve(undefined);
      });
    });
  let e = await attempt();
  if (e?.code === 'EADDRINUSE') {
    if (await answers(file)) return 'another Plugboard open on this data folder shows the approval requests';
    if (process.platform !== 'win32') rmSync(file, { force: true });
    e = await attempt();
  }
  if (e) return `the approval channel ${file} cannot be opened: ${e.message}`;
  // The data folder is the owner's alone; the socket too, wherever it lives.
  if (process.platform !== 'win32') chmodSync(file, 0o600);
  return undefined;
}

/** Whether something listens on the socket (a live inbox), rather than a file left behind. */
function answers(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(file);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
