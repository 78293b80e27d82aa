/**
 * Attached files on their way in: the contract's inputs (base64 inline, or an upload the web UI
 * made first) become checked files for the store, under the caps of shared/attachments.ts,
 * sniffed again here since the renderer is not trusted. And the rules for which turns take them.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { ATTACHMENT_LIMITS, classify, describeBytes, overLimits, type AttachmentInfo } from '../../shared/attachments';
import type { AttachmentInput } from '../../shared/contract';
import { failure, type Outcome } from '../../shared/failures';
import type { StoredFile } from './store';

/** Takes an upload by id: its file's path, forgotten from then on (the caller reads it once); undefined when unknown. */
export type TakeUpload = (uploadId: string) => { file: string; done(): void } | undefined;

function bytesOf(input: AttachmentInput, take: TakeUpload): Outcome<{ bytes: Uint8Array }> {
  if ('data' in input) return { ok: true, bytes: new Uint8Array(Buffer.from(input.data, 'base64')) };
  const upload = take(input.uploadId);
  if (!upload)
    return failure('not_found', `the upload of ${input.name} is gone (uploads are kept 30 minutes): attach it again`);
  try {
    // An upload larger than any attachment may be is refused before it is read.
    const size = statSync(upload.file).size;
    if (size > ATTACHMENT_LIMITS.imageBytes)
      return failure(
        'invalid_input',
        `${input.name} is ${describeBytes(size)}: files are capped at ${describeBytes(ATTACHMENT_LIMITS.imageBytes)} (text at ${describeBytes(ATTACHMENT_LIMITS.textBytes)})`,
      );
    const bytes = readFileSync(upload.file);
    return { ok: true, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) };
  } catch (e) {
    return failure('io_error', `could not read the upload of ${input.name}: ${(e as Error).message}`);
  } finally {
    upload.done();
  }
}

/** The files of a message, checked; a refusal names the file and the cap it passed. */
export function takeAttachments(
  inputs: readonly AttachmentInput[],
  take: TakeUpload,
): Outcome<{ files: StoredFile[] }> {
  if (inputs.length > ATTACHMENT_LIMITS.files)
    return failure(
      'invalid_input',
      `${inputs.length} files attached: a message takes ${ATTACHMENT_LIMITS.files} at most`,
    );
  const files: StoredFile[] = [];
  let total = 0;
  for (const input of inputs) {
    const got = bytesOf(input, take);
    if (!got.ok) return got;
    const over = overLimits(input.name, files.length, total, got.bytes.length);
    if (over) return failure('invalid_input', over);
    const c = classify(input.name, got.bytes);
    if (!c.ok) return failure('invalid_input', c.message);
    total += got.bytes.length;
    files.push({
      id: randomUUID(),
      name: input.name,
      kind: c.kind,
      mime: c.mime,
      size: got.bytes.length,
      bytes: got.bytes,
    });
  }
  return { ok: true, files };
}

/**
 * The files an edited message sends again: those of the message `keep` names (all where it is
 * absent), read from the store under new ids (the earlier version keeps its own), then the files
 * added while editing; together under the same caps as one sent message.
 */
export function filesOfEdit(
  had: readonly AttachmentInfo[],
  change: { keep?: readonly string[]; added: readonly StoredFile[] },
  read: (id: string) => StoredFile | null,
): Outcome<{ files: StoredFile[] }> {
  const stranger = change.keep?.find((k) => !had.some((a) => a.id === k));
  if (stranger) return failure('invalid_input', `keep: the message has no attached file ${stranger}`);
  const files: StoredFile[] = [];
  let total = 0;
  const kept = had.filter((a) => !change.keep || change.keep.includes(a.id));
  for (const a of kept) {
    const f = read(a.id);
    if (!f)
      return failure('not_found', `${a.name} is no longer stored: remove it from the message, or attach it again`);
    files.push({ ...f, id: randomUUID() });
  }
  for (const f of change.added) files.push(f);
  for (const [i, f] of files.entries()) {
    const over = overLimits(f.name, i, total, f.size);
    if (over) return failure('invalid_input', over);
    total += f.size;
  }
  return { ok: true, files };
}

/** What a message carries of its files: everything but the bytes. */
export function infoOf(files: readonly StoredFile[]): AttachmentInfo[] {
  return files.map(({ id, name, kind, mime, size }) => ({ id, name, kind, mime, size }));
}

/**
 * Why files cannot go with this message, or null. They go to a model: a `/` command runs a tool
 * with the arguments typed and passthrough input goes to a plugin, neither of which takes files,
 * so those are refused rather than sent without them. A model that takes no images is said so.
 */
export function attachmentRefusal(
  files: readonly StoredFile[],
  to: { command: boolean; passthrough: string | null; model: { name: string; images: boolean } | null },
): string | null {
  if (files.length === 0) return null;
  const names = files.map((f) => f.name).join(', ');
  if (to.passthrough)
    return `${to.passthrough} holds this conversation (passthrough) and takes no files: remove ${names}, or Exit the session first`;
  if (to.command)
    return `a / command runs a tool with what you type and takes no files: remove ${names}, or send them with a message to the model`;
  const images = files.filter((f) => f.kind === 'image');
  if (to.model && !to.model.images && images.length > 0) {
    return `${to.model.name} does not take images, so ${images.map((f) => f.name).join(', ')} cannot go to it: remove ${images.length === 1 ? 'it' : 'them'}, or pick a model that takes images`;
  }
  return null;
}
