/**
 * The link to the engine: frames in from one stream, frames out to another, and the one reason
 * it ended (shutdown is the plugin's business; this only sees the streams).
 */
import { encodeFrame, FrameReader } from './framing.js';
import { guardStdout, type StdoutGuard } from './stdout-guard.js';

export type StopReason = 'shutdown' | 'end-of-input' | 'signal' | 'protocol-error' | 'output-closed';

export interface ConnectionHandlers {
  message(value: unknown): void;
  /** A frame arrived whose body is not JSON. */
  invalidFrame(text: string, reason: string): void;
  /** The streams ended or broke; no more messages will come. */
  ended(reason: StopReason, exitCode: number, detail: string): void;
}

export class Connection {
  private readonly reader = new FrameReader();
  private readonly guard: StdoutGuard | null;
  private reading = true;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly handlers: ConnectionHandlers,
  ) {
    this.guard = output === process.stdout ? guardStdout() : null;
    input.on('data', this.onData);
    input.on('end', this.onEnd);
    input.on('error', this.onInputError);
    output.on('error', this.onOutputError);
  }

  /** Sends one message. Throws FrameTooLargeError or TypeError when it cannot be framed. */
  send(message: unknown): void {
    const frame = encodeFrame(message);
    if (this.guard) this.guard.write(frame);
    else this.output.write(frame);
  }

  /** Resolves once what was sent has been handed to the OS, or after `deadlineMs`. */
  flush(deadlineMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, deadlineMs);
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      try {
        if (this.guard) this.guard.write(Buffer.alloc(0), done);
        else this.output.write(Buffer.alloc(0), done);
      } catch {
        done();
      }
    });
  }

  /** Stops reading; later input is ignored. stdin is released so the process can exit. */
  stopReading(): void {
    if (!this.reading) return;
    this.reading = false;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.pause();
    if (this.input === process.stdin) process.stdin.destroy();
  }

  dispose(): void {
    this.stopReading();
    this.input.off('error', this.onInputError);
    this.output.off('error', this.onOutputError);
    this.guard?.restore();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    if (!this.reading) return;
    let frames;
    try {
      frames = this.reader.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    } catch (e) {
      this.end('protocol-error', 2, (e as Error).message);
      return;
    }
    for (const f of frames) {
      if (!this.reading) return;
      if (f.ok) this.handlers.message(f.value);
      else this.handlers.invalidFrame(f.text, f.reason);
    }
  };

  private readonly onEnd = (): void => {
    const cut = this.reader.pendingBytes;
    if (cut > 0) this.end('protocol-error', 1, `stdin ended in the middle of a frame (${cut} bytes of it received)`);
    else this.end('end-of-input', 0, 'stdin ended');
  };

  private readonly onInputError = (e: Error): void => this.end('end-of-input', 0, `stdin failed: ${e.message}`);

  // EPIPE: the engine is gone. Nothing more can be said to it.
  private readonly onOutputError = (e: Error): void => this.end('output-closed', 0, `stdout failed: ${e.message}`);

  private end(reason: StopReason, exitCode: number, detail: string): void {
    if (!this.reading && reason !== 'output-closed') return;
    this.stopReading();
    this.handlers.ended(reason, exitCode, detail);
  }
}
