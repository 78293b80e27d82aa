/**
 * Bounds on the uploads that wait to be installed. An upload stays until the person installs,
 * refuses or cancels it; one dropped and never previewed stayed until the server stopped, and a
 * client could fill the disk with them, one limit-sized file after another. So the waiting
 * uploads share a quota of bytes (counted on disk, plus those arriving now), and each is removed
 * once it is older than the age limit, checked by a timer and before each new upload.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { IDisposable } from '../../shared/lifecycle';
import { describeError, describeSize, type Log } from './http';

export const DEFAULT_UPLOAD_QUOTA_BYTES = 512 * 1024 * 1024;
export const DEFAULT_UPLOAD_MAX_AGE_MS = 30 * 60 * 1000;

export class UploadQuota implements IDisposable {
  /** Uploads being received now, by folder, with the bytes received so far (their files grow). */
  private readonly arriving = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly dir: string,
    readonly maxBytes: number,
    readonly maxAgeMs: number,
    private readonly log: Log,
  ) {
    this.timer = setInterval(() => this.sweep(), Math.min(maxAgeMs, 60_000));
    // The server's sockets keep the process alive, never this timer.
    this.timer.unref();
  }

  /** Removes each upload folder older than the age limit. */
  sweep(now = Date.now()): void {
    for (const name of this.folders()) {
      const dir = path.join(this.dir, name);
      if (this.arriving.has(dir)) continue;
      try {
        if (now - statSync(dir).mtimeMs <= this.maxAgeMs) continue;
        rmSync(dir, { recursive: true, force: true });
        this.log(
          `plugboard serve: removed the upload ${name}, not installed within ${Math.round(this.maxAgeMs / 60_000)} minutes`,
        );
      } catch (e) {
        this.log(`plugboard serve: removing the old upload ${dir}: ${describeError(e)}`);
      }
    }
  }

  /** Bytes a new upload may still take, and the refusal to give when that is what stops it. */
  room(): { bytes: number; refusal: string } {
    let waiting = this.waitingBytes();
    for (const n of this.arriving.values()) waiting += n;
    return {
      bytes: Math.max(0, this.maxBytes - waiting),
      refusal: `uploads waiting to be installed take ${describeSize(waiting)} of the ${describeSize(this.maxBytes)} allowed: install or cancel them first (each is removed after ${Math.round(this.maxAgeMs / 60_000)} minutes)`,
    };
  }

  /** Counts the bytes of an upload into `dir` as they arrive; `done` once its file is complete or gone. */
  arrived(dir: string, bytes: number): void {
    this.arriving.set(dir, (this.arriving.get(dir) ?? 0) + bytes);
  }

  done(dir: string): void {
    this.arriving.delete(dir);
  }

  private folders(): string[] {
    try {
      return readdirSync(this.dir).filter((n) => n.startsWith('u-'));
    } catch {
      return [];
    }
  }

  private waitingBytes(): number {
    let total = 0;
    for (const name of this.folders()) {
      if (this.arriving.has(path.join(this.dir, name))) continue;
      try {
        for (const f of readdirSync(path.join(this.dir, name))) total += statSync(path.join(this.dir, name, f)).size;
      } catch {
        // removed meanwhile
      }
    }
    return total;
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}
