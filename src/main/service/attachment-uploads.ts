/**
 * Files the web UI uploaded to attach to a message (a browser cannot hand the server a path, and
 * a large image does not fit in one WebSocket message). `chat.send` names them by id; each is read
 * once and its folder deleted then, and only ever a folder inside the uploads folder. One the page
 * never sends is removed by the server's upload quota after its wait (upload-quota.ts).
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { TakeUpload } from '../assistant';

export class AttachmentUploads {
  private readonly files = new Map<string, string>();

  constructor(private readonly uploadsDir: string | undefined) {}

  register(file: string): string {
    const id = randomBytes(16).toString('base64url');
    this.files.set(id, file);
    return id;
  }

  readonly take: TakeUpload = (id) => {
    const file = this.files.get(id);
    if (!file) return undefined;
    this.files.delete(id);
    return { file, done: () => this.remove(file) };
  };

  private remove(file: string): void {
    const dir = path.dirname(file);
    const root = this.uploadsDir && path.resolve(this.uploadsDir);
    if (root && path.dirname(path.resolve(dir)) === root) rmSync(dir, { recursive: true, force: true });
  }
}
