/**
 * Attached files in the conversations database (schema version 3). The bytes live in their own
 * table, not in the message's JSON: a message is read whole every time its conversation is, and
 * a few images would make every read of it megabytes; a file's bytes are read only when a model
 * request or the chat needs them. A conversation's files go with it when it is deleted.
 */
import type Database from 'better-sqlite3';
import type { AttachmentInfo } from '../../../shared/attachments';

/** An attachment with its bytes, as the store keeps it. */
export interface StoredFile extends AttachmentInfo {
  bytes: Uint8Array;
}

export const FROM_V2 = `
CREATE TABLE attachments (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  conversation_id TEXT NOT NULL,
  message_id TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  mime TEXT NOT NULL,
  size INTEGER NOT NULL,
  data BLOB NOT NULL
);
CREATE INDEX attachments_in_conversation ON attachments(conversation_id);
`;

interface FileRow {
  id: string;
  name: string;
  kind: string;
  mime: string;
  size: number;
  data: Buffer;
}

export function fileStatements(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO attachments (id, conversation_id, message_id, name, kind, mime, size, data) VALUES (@id, @cid, @mid, @name, @kind, @mime, @size, @data)
     ON CONFLICT(id) DO NOTHING`,
  );
  const one = db.prepare<[string], FileRow>('SELECT id, name, kind, mime, size, data FROM attachments WHERE id = ?');
  const drop = db.prepare('DELETE FROM attachments WHERE conversation_id = ?');
  return {
    /** Writes the files of message `mid`; call inside the message's own transaction. */
    add(cid: string, mid: string, files: readonly StoredFile[]): void {
      for (const f of files)
        insert.run({
          id: f.id,
          cid,
          mid,
          name: f.name,
          kind: f.kind,
          mime: f.mime,
          size: f.size,
          data: Buffer.from(f.bytes),
        });
    },
    get(id: string): StoredFile | null {
      const r = one.get(id);
      if (!r) return null;
      return {
        id: r.id,
        name: r.name,
        kind: r.kind === 'image' ? 'image' : 'text',
        mime: r.mime,
        size: r.size,
        bytes: new Uint8Array(r.data),
      };
    },
    dropConversation(cid: string): void {
      drop.run(cid);
    },
  };
}
