/**
 * Writes the disk refused (full, read-only, failing), kept in order until they can be written.
 * While any wait, what the store reads is the database with these applied on top, so the chat
 * shows every message it was given. The queue is bounded in bytes: past the bound a write is
 * refused outright, so a disk that stays full cannot fill memory as well.
 */
import type { ChatMessage, Conversation } from '../../../shared/contract';
import type { StoredFile } from './attachments';

/** A conversation as stored: with the tools the person allowed for it (`plugin:tool`). */
export type StoredConversation = Omit<Conversation, 'passthrough' | 'runningTurns' | 'tokens'> & { allowed: string[] };

export type WriteOp =
  | { kind: 'create'; id: string; title: string; at: number }
  | { kind: 'rename'; id: string; title: string; at: number }
  | { kind: 'delete'; id: string }
  | { kind: 'put'; conversationId: string; message: ChatMessage; at: number; files?: readonly StoredFile[] }
  | { kind: 'model'; id: string; model: string | null }
  | { kind: 'allowed'; id: string; allowed: string[] };

/** Bytes of unsaved changes kept at most (about 32 messages at the 2 MiB cap). */
export const MAX_PENDING_BYTES = 64 * 1024 * 1024;

/** Errors of the disk or the file, after which a retry may succeed; anything else is a bug. */
export function isIoError(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return (
    typeof code === 'string' && /^SQLITE_(FULL|IOERR|CANTOPEN|READONLY|BUSY|LOCKED|PROTOCOL|CORRUPT|NOTADB)/.test(code)
  );
}

/** Retries after a failed write: 0.5 s, doubling, at most every 30 s, for as long as writes wait. */
export function retryDelay(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** Math.min(attempt, 6));
}

function sizeOf(op: WriteOp): number {
  if (op.kind !== 'put') return 64 + op.id.length * 2;
  return JSON.stringify(op.message).length + 64 + (op.files ?? []).reduce((n, f) => n + f.bytes.length, 0);
}

function conversationOf(op: WriteOp): string {
  return op.kind === 'put' ? op.conversationId : op.id;
}

export class PendingWrites {
  private ops: WriteOp[] = [];
  /** Each op's size, measured once when queued (a live message may be megabytes of JSON). */
  private sizes: number[] = [];
  private bytes = 0;

  get count(): number {
    return this.ops.length;
  }

  get isEmpty(): boolean {
    return this.ops.length === 0;
  }

  /** Queues `op`; false when the bound would be passed (the op is then not kept). */
  push(op: WriteOp): boolean {
    const n = sizeOf(op);
    if (this.bytes + n > MAX_PENDING_BYTES) return false;
    this.ops.push(op);
    this.sizes.push(n);
    this.bytes += n;
    return true;
  }

  peek(): WriteOp | undefined {
    return this.ops[0];
  }

  shift(): void {
    if (this.ops.shift()) this.bytes -= this.sizes.shift() as number;
  }

  /** An attached file a waiting write holds. */
  file(id: string): StoredFile | null {
    for (const op of this.ops) if (op.kind === 'put') for (const f of op.files ?? []) if (f.id === id) return f;
    return null;
  }

  /** Ids of the conversations a waiting write changes. */
  touched(): Set<string> {
    const ids = new Set<string>();
    for (const op of this.ops) ids.add(conversationOf(op));
    return ids;
  }

  /** `base` (as the database has it) with the waiting writes to conversation `id` applied. */
  overlay(id: string, base: StoredConversation | null): StoredConversation | null {
    let c = base ? { ...base, messages: [...base.messages] } : null;
    for (const op of this.ops) {
      if (conversationOf(op) !== id) continue;
      if (op.kind === 'create')
        c ??= { id, title: op.title, updatedAt: op.at, messageCount: 0, messages: [], model: null, allowed: [] };
      else if (op.kind === 'delete') c = null;
      else if (!c)
        continue; // a write to a conversation deleted before it: dropped, as the database would
      else if (op.kind === 'rename') {
        c.title = op.title;
        c.updatedAt = op.at;
      } else if (op.kind === 'put') {
        const i = c.messages.findIndex((m) => m.id === op.message.id);
        if (i >= 0) c.messages[i] = op.message;
        else c.messages.push(op.message);
        c.updatedAt = op.at;
      } else if (op.kind === 'model') c.model = op.model;
      else if (op.kind === 'allowed') c.allowed = op.allowed;
    }
    if (c) c.messageCount = c.messages.length;
    return c;
  }
}
