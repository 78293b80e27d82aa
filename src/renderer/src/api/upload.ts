/**
 * Web UI upload of a dropped package: the browser cannot hand the server a path, so the bytes go
 * to `POST /upload` and the install preview refers to them by `uploadId`.
 *
 * The file name travels percent-encoded (`encodeURIComponent`) in `x-file-name`: header values
 * must be Latin-1, and plugin file names need not be. The server decodes it.
 */
import { failure, type Outcome } from '../../../shared/failures';

/**
 * The upload's id, or why there is none: `disconnected` when the server could not be reached,
 * `invalid_input` when it refused the file (its kind, its size, the token), `io_error` when it
 * could not keep it.
 */
export type UploadResult = Outcome<{ uploadId: string }>;

export async function uploadFile(
  file: File,
  token: string,
  purpose: 'install' | 'attachment' = 'install',
): Promise<UploadResult> {
  let res: Response;
  try {
    res = await fetch('/upload', {
      method: 'POST',
      headers: {
        'x-plugboard-token': token,
        'x-file-name': encodeURIComponent(file.name),
        'x-upload-purpose': purpose,
        'content-type': 'application/octet-stream',
      },
      body: file,
    });
  } catch (e) {
    return failure('disconnected', `Could not upload ${file.name}: ${e instanceof Error ? e.message : String(e)}`);
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // Not JSON: reported below with the status.
  }
  const b = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (res.ok && typeof b.uploadId === 'string') return { ok: true, uploadId: b.uploadId };
  const why = typeof b.error === 'string' ? b.error : `the server answered ${res.status} ${res.statusText}`.trim();
  return failure(res.status >= 500 ? 'io_error' : 'invalid_input', `Could not upload ${file.name}: ${why}`);
}
