/**
 * JSON over HTTP from a registry (the MCP registry catalog, npm, PyPI): a deadline, a size cap,
 * and every way it can go wrong said as a failure value: `registry_unreachable` with the URL and
 * what came back, `not_found` for a 404.
 */
import { failure, type Result } from '../../shared/failures';

/** A registry answer larger than this is refused: a page of 100 servers or a packument is far under it. */
const MAX_BYTES = 16 * 1024 * 1024;
const DEADLINE_MS = 15_000;

export async function fetchJson(url: string, accept = 'application/json'): Promise<Result<unknown>> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept }, signal: AbortSignal.timeout(DEADLINE_MS) });
  } catch (e) {
    const why = (e as Error).name === 'TimeoutError' ? `no answer within ${DEADLINE_MS / 1000} s` : reason(e);
    return failure('registry_unreachable', `could not reach ${url}: ${why}`);
  }
  const text = await readCapped(res);
  if (text === null) return failure('registry_unreachable', `${url} answered more than ${MAX_BYTES} bytes`);
  if (res.status === 404) return failure('not_found', `${url}: not found (404)${errorOf(text)}`);
  if (!res.ok)
    return failure('registry_unreachable', `${url} answered ${res.status} ${res.statusText}${errorOf(text)}`);
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return failure(
      'registry_unreachable',
      `${url} did not answer JSON (it began ${JSON.stringify(text.slice(0, 60))})`,
    );
  }
}

async function readCapped(res: Response): Promise<string | null> {
  if (Number(res.headers.get('content-length') ?? '0') > MAX_BYTES) {
    await res.body?.cancel();
    return null;
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The `error` (or `detail`) a registry put in its error answer, if any. */
function errorOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; detail?: unknown };
    const e = body.error ?? body.detail;
    return typeof e === 'string' && e ? `: ${e}` : '';
  } catch {
    return '';
  }
}

function reason(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (e as Error).message;
}
