/**
 * Files the person attached in the composer, before they are sent: each read and checked when it
 * is added (the same rules the server applies: shared/attachments.ts), so a refusal names the file
 * and the cap at once. Sending turns them into the contract's inputs: bytes inline, or, in the web
 * UI, uploaded first when they would not fit in one WebSocket message.
 */
import { classify, imageTypeOf, overLimits, tooLarge, type AttachmentKind } from '../../../../shared/attachments';
import type { AttachmentInput } from '../../../../shared/contract';
import type { Outcome } from '../../../../shared/failures';
import { getApi, installsByPath, uploadAttachment } from '../../api';

export interface AttachmentDraft {
  key: string;
  file: File;
  name: string;
  size: number;
  kind: AttachmentKind;
  mime: string;
}

let seq = 0;

/**
 * The composer hands its files to a send; when the send is refused they come back to it (to be
 * removed, or sent again), and when Retry sends them again they leave it, so they cannot go twice.
 */
type FilesChange =
  | { back: readonly AttachmentDraft[] }
  | { resent: ReadonlySet<string> }
  /** Files dropped elsewhere on the window that are not plugins (stores/drops.ts): attached. */
  | { attach: readonly File[] };
const fileListeners = new Set<(change: FilesChange) => void>();

export function onComposerFiles(listener: (change: FilesChange) => void): () => void {
  fileListeners.add(listener);
  return () => fileListeners.delete(listener);
}

export function filesBack(files: readonly AttachmentDraft[]): void {
  for (const l of fileListeners) l({ back: files });
}

export function filesToComposer(files: readonly File[]): void {
  for (const l of fileListeners) l({ attach: files });
}

export function filesResent(files: readonly AttachmentDraft[]): void {
  const resent = new Set(files.map((f) => f.key));
  for (const l of fileListeners) l({ resent });
}

/** Reads and checks files to join `have`; what cannot join is named in `refused`. */
export async function draftsOf(
  files: readonly File[],
  have: readonly { size: number }[],
): Promise<{ added: AttachmentDraft[]; refused: string[] }> {
  const added: AttachmentDraft[] = [];
  const refused: string[] = [];
  let total = have.reduce((n, d) => n + d.size, 0);
  for (const file of files) {
    const over = overLimits(file.name, have.length + added.length, total, file.size);
    if (over) {
      refused.push(over);
      continue;
    }
    // Too large for its kind: refused from its first bytes, without reading it all.
    const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
    const big = tooLarge(file.name, imageTypeOf(head) ? 'image' : 'text', file.size);
    if (big) {
      refused.push(big);
      continue;
    }
    const c = classify(file.name, new Uint8Array(await file.arrayBuffer()));
    if (!c.ok) {
      refused.push(c.message);
      continue;
    }
    total += file.size;
    added.push({ key: `a${seq++}`, file, name: file.name, size: file.size, kind: c.kind, mime: c.mime });
  }
  return { added, refused };
}

function base64(bytes: Uint8Array): string {
  let s = '';
  // In pieces: String.fromCharCode takes a limited number of arguments.
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/**
 * Bytes sent inline at most per message over WebSocket: the server takes 4 MiB a message, and
 * base64 is a third larger. The rest goes through `POST /upload` first.
 */
const INLINE_WS_BYTES = 2 * 1024 * 1024;

/** The drafts as chat.send takes them; an upload that fails is a message naming the file. */
export async function inputsOf(drafts: readonly AttachmentDraft[]): Promise<Outcome<{ inputs: AttachmentInput[] }>> {
  const viaIpc = installsByPath();
  const inputs: AttachmentInput[] = [];
  let inline = 0;
  for (const d of drafts) {
    if (viaIpc || inline + d.size <= INLINE_WS_BYTES) {
      inline += d.size;
      inputs.push({ name: d.name, data: base64(new Uint8Array(await d.file.arrayBuffer())) });
      continue;
    }
    const r = await uploadAttachment(d.file);
    if (!r.ok) return r;
    inputs.push({ name: d.name, uploadId: r.uploadId });
  }
  return { ok: true, inputs };
}

/** An attached file's bytes as a data: URL, for showing an image; null when it cannot be had. */
export async function attachmentUrl(id: string): Promise<string | null> {
  try {
    const r = await getApi().invoke('chat.attachment', { id });
    return r.ok ? `data:${r.mime};base64,${r.data}` : null;
  } catch {
    return null;
  }
}
