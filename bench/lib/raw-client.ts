/**
 * A bare protocol client for the baselines: spawns a process and exchanges framed JSON with it
 * with nothing in between, no supervisor, no validation. What the host must come close to.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export type RawFraming = 'ndjson' | 'length-prefixed';

export class RawClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private buf: Buffer = Buffer.alloc(0);
  private waiter: {
    match: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  } | null = null;

  constructor(
    command: string,
    args: string[],
    private readonly framing: RawFraming,
    cwd?: string,
    extraEnv: Record<string, string> = {},
  ) {
    // The same kind of environment the host gives plugins: a NODE_OPTIONS inherited from the
    // benchmark runner (tsx's loader) would slow every start of a raw peer and flatter the host.
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LANG: process.env.LANG ?? 'C.UTF-8',
      ...extraEnv,
    };
    this.child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.resume();
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
  }

  send(msg: unknown): void {
    const json = JSON.stringify(msg);
    if (this.framing === 'ndjson') {
      this.child.stdin.write(`${json}\n`);
      return;
    }
    const body = Buffer.from(json);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length, 0);
    this.child.stdin.write(Buffer.concat([head, body]));
  }

  /** Sends and resolves with the first message that matches. */
  exchange(msg: unknown, match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      this.waiter = { match, resolve };
      this.send(msg);
    });
  }

  /** Called for every message that no exchange is waiting for. */
  onOther: ((m: Record<string, unknown>) => void) | null = null;

  private onData(chunk: Buffer): void {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    for (;;) {
      let body: Buffer;
      if (this.framing === 'ndjson') {
        const nl = this.buf.indexOf(0x0a);
        if (nl === -1) return;
        body = this.buf.subarray(0, nl);
        this.buf = this.buf.subarray(nl + 1);
      } else {
        if (this.buf.length < 4) return;
        const len = this.buf.readUInt32BE(0);
        if (this.buf.length < 4 + len) return;
        body = this.buf.subarray(4, 4 + len);
        this.buf = this.buf.subarray(4 + len);
      }
      const msg = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      const w = this.waiter;
      if (w && w.match(msg)) {
        this.waiter = null;
        w.resolve(msg);
      } else this.onOther?.(msg);
    }
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        this.child.kill('SIGKILL');
        resolve();
      }, 2000);
      this.child.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }
}
