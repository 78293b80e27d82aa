/**
 * The control endpoint, for tests in another process (Playwright, `plugboard chat` CLI tests):
 *   POST /__script    {steps, fallback?, replace?}  queue JSON steps (see steps.ts)
 *   GET  /__requests  every recorded request, model calls and model lists alike
 *   POST /__reset     forget the queue, the fallback and the record
 *   GET  /__health    {ok: true}
 * Control requests are not recorded: the record is what a model client sent.
 */
import type { ServerResponse } from 'node:http';
import type { RecordedRequest } from './requests';
import { sendJson } from './respond';
import { scriptSchema, type Step } from './steps';

export interface Controllable {
  readonly requests: readonly RecordedRequest[];
  script(...steps: Step[]): unknown;
  setFallback(step: Step | undefined): void;
  clearQueue(): void;
  reset(): void;
  readonly queued: number;
}

export function handleControl(
  server: Controllable,
  method: string,
  path: string,
  raw: string,
  res: ServerResponse,
): void {
  if (method === 'GET' && path === '/__health') return sendJson(res, { status: 200, body: { ok: true } });
  if (method === 'GET' && path === '/__requests')
    return sendJson(res, { status: 200, body: { requests: server.requests } });
  if (method === 'POST' && path === '/__reset') {
    server.reset();
    return sendJson(res, { status: 200, body: { ok: true } });
  }
  if (method === 'POST' && path === '/__script') {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (e) {
      return sendJson(res, {
        status: 400,
        body: { error: `POST /__script: the body is not JSON: ${(e as Error).message}` },
      });
    }
    const parsed = scriptSchema.safeParse(json);
    if (!parsed.success)
      return sendJson(res, { status: 400, body: { error: `POST /__script: ${parsed.error.message}` } });
    if (parsed.data.replace === true) server.clearQueue();
    server.script(...parsed.data.steps);
    if (parsed.data.fallback !== undefined) server.setFallback(parsed.data.fallback);
    return sendJson(res, { status: 200, body: { queued: server.queued } });
  }
  sendJson(res, {
    status: 404,
    body: { error: `${method} ${path}: no such control endpoint (/__script, /__requests, /__reset, /__health)` },
  });
}
