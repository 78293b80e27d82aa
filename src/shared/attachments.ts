/**
 * Files attached to a person's message: what they may be, how large, and how a file is told apart
 * as text or image. Pure, so the composer checks a file the moment it is dropped and the main
 * process checks the same rules again when the message arrives (the renderer is not trusted).
 *
 * Text is sniffed, not trusted by name or type: a file is text when its bytes are valid UTF-8 with
 * no NUL, whatever it is called (a `.log`, a `Makefile`, a `.ts` the OS calls video/mp2t). Images
 * are known by their first bytes, for the four formats every provider that takes images accepts.
 */
import { failure, type Failure } from './failures';

/** Every cap in one place: the composer says them, the server enforces them. */
export const ATTACHMENT_LIMITS = {
  /** Files per message. */
  files: 10,
  /** A text file becomes part of the prompt: 256 KiB is about 64,000 tokens already. */
  textBytes: 256 * 1024,
  /** Providers take images up to about 5 MB (Anthropic's limit; OpenAI's is larger). */
  imageBytes: 5 * 1024 * 1024,
  /** All files of one message together. */
  totalBytes: 20 * 1024 * 1024,
} as const;

export type AttachmentKind = 'text' | 'image';

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** An attachment as a message carries it (its bytes are kept apart, fetched by id). */
export interface AttachmentInfo {
  id: string;
  name: string;
  kind: AttachmentKind;
  /** `text/plain` for text, else the image's type. */
  mime: string;
  size: number;
}

export function describeBytes(n: number): string {
  const MiB = 1024 * 1024;
  if (n >= MiB) return `${Number((n / MiB).toFixed(1))} MiB`;
  if (n >= 1024) return `${Number((n / 1024).toFixed(1))} KiB`;
  return `${n} bytes`;
}

/** The image type the bytes begin with, or null. */
export function imageTypeOf(b: Uint8Array): ImageType | null {
  const at = (i: number, ...xs: number[]): boolean => xs.every((x, k) => b[i + k] === x);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x47, 0x49, 0x46, 0x38) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return 'image/gif';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return null;
}

/** The text of bytes that are valid UTF-8 without NUL, else null (a binary file). */
export function textOf(b: Uint8Array): string | null {
  if (b.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(b);
  } catch {
    return null;
  }
}

export type Classified =
  { ok: true; kind: 'image'; mime: ImageType } | { ok: true; kind: 'text'; mime: 'text/plain'; text: string } | Failure;

const IMAGE_WORDS = 'PNG, JPEG, GIF or WebP';

/** Why a file of this kind and size is too large, or null; names the file and the cap. */
export function tooLarge(name: string, kind: AttachmentKind, size: number): string | null {
  const { imageBytes, textBytes } = ATTACHMENT_LIMITS;
  if (kind === 'image')
    return size > imageBytes
      ? `${name} is ${describeBytes(size)}: images are capped at ${describeBytes(imageBytes)}`
      : null;
  return size > textBytes
    ? `${name} is ${describeBytes(size)}: text files are capped at ${describeBytes(textBytes)} (images at ${describeBytes(imageBytes)})`
    : null;
}

/** What a file is, or why it cannot be attached; every refusal names the file and the rule. */
export function classify(name: string, bytes: Uint8Array): Classified {
  const image = imageTypeOf(bytes);
  const big = tooLarge(name, image ? 'image' : 'text', bytes.length);
  if (big) return failure('invalid_input', big);
  if (image) return { ok: true, kind: 'image', mime: image };
  const text = textOf(bytes);
  if (text === null)
    return failure(
      'invalid_input',
      `${name} is neither text (UTF-8) nor an image (${IMAGE_WORDS}): only those can be attached`,
    );
  return { ok: true, kind: 'text', mime: 'text/plain', text };
}

/** Why one more file of `size` bytes cannot join `count` files of `total` bytes, or null. */
export function overLimits(name: string, count: number, total: number, size: number): string | null {
  if (count + 1 > ATTACHMENT_LIMITS.files)
    return `${name} was not attached: a message takes ${ATTACHMENT_LIMITS.files} files at most`;
  if (total + size > ATTACHMENT_LIMITS.totalBytes)
    return `${name} was not attached: a message's files are capped at ${describeBytes(ATTACHMENT_LIMITS.totalBytes)} together`;
  return null;
}

/**
 * How a text file is put before the model: delimited and named, so it cannot pass for the
 * person's words; a closing tag inside the file is broken up so the file cannot end its own block.
 */
export function textBlock(name: string, text: string): string {
  const safeName = name.replace(/["\n\r]/g, '_');
  return `<attached-file name="${safeName}">\n${text.replaceAll('</attached-file', '<\\/attached-file')}\n</attached-file>`;
}
