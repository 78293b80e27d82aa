/**
 * The asking side of the approval channel (wire.ts): an MCP server whose client called a tool
 * that needs the person's approval shows the request in the app open on the same data folder,
 * if one is, and waits for its answer. `reachApp` says at once whether an app is there.
 */
import net from 'node:net';
import type { ExternalApprovalView, ExternalDecision } from '../../../shared/external-approvals';
import { channelPath, line, Lines, parseFromApp } from './wire';

export interface AppLink {
  /**
   * Shows the request in the app and waits: the person's decision, or undefined when the app
   * closed first. Aborting withdraws the card (another answer came first, or the call ended).
   */
  ask(request: ExternalApprovalView, signal: AbortSignal): Promise<ExternalDecision | undefined>;
}

/** A link to the app open on `dataDir`, or undefined when none listens there. */
export function reachApp(dataDir: string): Promise<AppLink | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(channelPath(dataDir));
    socket.once('error', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('connect', () => resolve(new SocketLink(socket)));
  });
}

class SocketLink implements AppLink {
  constructor(private readonly socket: net.Socket) {}

  ask(request: ExternalApprovalView, signal: AbortSignal): Promise<ExternalDecision | undefined> {
    const { socket } = this;
    return new Promise((resolve) => {
      const lines = new Lines();
      const done = (d: ExternalDecision | undefined): void => {
        signal.removeEventListener('abort', onAbort);
        socket.end();
        resolve(d);
      };
      const onAbort = (): void => {
        const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'withdrawn');
        socket.write(line({ type: 'withdraw', id: request.id, reason }));
        done(undefined);
      };
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        let got: string[];
        try {
          got = lines.push(chunk);
        } catch {
          socket.destroy();
          return done(undefined);
        }
        for (const l of got) {
          const m = parseFromApp(l);
          if (m?.id === request.id) return done(m.decision);
        }
      });
      socket.on('error', () => done(undefined));
      socket.on('close', () => done(undefined));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      socket.write(line({ type: 'ask', request }));
    });
  }
}
