/**
 * Which wire answers a request, and the checks the real services make before they answer:
 * Anthropic wants its version header and its key in `x-api-key`; OpenAI wants `Authorization:
 * Bearer` (checked only when the server was given a key: local servers such as Ollama take any);
 * each rejects a body without its required fields. A model call then takes the next script step.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import {
  anthropicBadRequest,
  anthropicFailure,
  anthropicMessage,
  anthropicMissingVersion,
  anthropicModels,
  anthropicNotFound,
  anthropicStream,
  anthropicUnauthorized,
} from './anthropic-wire';
import { ollamaTags, ollamaVersion } from './ollama-wire';
import {
  openaiBadRequest,
  openaiCompletion,
  openaiFailure,
  openaiModels,
  openaiNotFound,
  openaiStream,
  openaiUnauthorized,
} from './openai-wire';
import { planReply, type JsonAnswer } from './plan';
import type { Api, RecordedRequest } from './requests';
import { sendJson, sendStream, sendWhole, untilClosed } from './respond';
import { stepSchema, type ScriptStep, type Step } from './steps';

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  record: RecordedRequest;
  /** Fires when the client goes away or the server closes. */
  closed: AbortSignal;
}

export interface RouteContext {
  readonly models: readonly string[];
  readonly apiKey: string | undefined;
  /** The next step for this model call, or undefined when none is left. */
  takeStep(record: RecordedRequest): ScriptStep | undefined;
}

const MODEL_PATHS = new Set(['/v1/chat/completions', '/v1/messages']);

export function classify(
  method: string,
  path: string,
  headers: Record<string, string>,
): { api: Api; isModelCall: boolean } {
  const isModelCall = method === 'POST' && MODEL_PATHS.has(path);
  if (path.startsWith('/api/')) return { api: 'ollama', isModelCall };
  if (path === '/v1/messages' || headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined)
    return { api: 'anthropic', isModelCall };
  if (path.startsWith('/v1/')) return { api: 'openai', isModelCall };
  return { api: 'unknown', isModelCall };
}

function rid(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export async function route(ctx: RouteContext, x: Exchange): Promise<void> {
  const { method, path, api, headers } = x.record;
  if (api === 'ollama') {
    if (method === 'GET' && path === '/api/tags') return sendJson(x.res, ollamaTags(ctx.models));
    if (method === 'GET' && path === '/api/version') return sendJson(x.res, ollamaVersion());
    return sendJson(x.res, { status: 404, body: { error: `${method} ${path} is not served here` } });
  }
  if (api === 'anthropic') {
    const h = { 'request-id': rid('req_') };
    if (headers['anthropic-version'] === undefined) return sendJson(x.res, anthropicMissingVersion(), h);
    if (ctx.apiKey !== undefined && headers['x-api-key'] !== ctx.apiKey)
      return sendJson(x.res, anthropicUnauthorized(headers['x-api-key']), h);
    if (method === 'GET' && path === '/v1/models') return sendJson(x.res, anthropicModels(ctx.models), h);
    if (method === 'POST' && path === '/v1/messages') return anthropicCall(ctx, x, h);
    return sendJson(x.res, anthropicNotFound(), h);
  }
  const h = { 'x-request-id': rid('req_'), 'openai-processing-ms': '1' };
  if (ctx.apiKey !== undefined && headers.authorization !== `Bearer ${ctx.apiKey}`)
    return sendJson(x.res, openaiUnauthorized(headers.authorization), h);
  if (method === 'GET' && path === '/v1/models') return sendJson(x.res, openaiModels(ctx.models), h);
  if (method === 'POST' && path === '/v1/chat/completions') return openaiCall(ctx, x, h);
  return sendJson(x.res, openaiNotFound(method, path), h);
}

/**
 * The step for this call, checked. A missing or invalid step is the test's mistake, answered
 * with a 400 that says so: a 4xx, because a 5xx would make the SDK retry it twice.
 */
async function step(ctx: RouteContext, x: Exchange): Promise<Step | string> {
  const next = ctx.takeStep(x.record);
  const where = `request #${x.record.seq} (${x.record.method} ${x.record.path})`;
  if (next === undefined) return `scripted model server: no step is scripted for ${where}`;
  const value = typeof next === 'function' ? await next(x.record) : next;
  const parsed = stepSchema.safeParse(value);
  return parsed.success
    ? parsed.data
    : `scripted model server: the step for ${where} is invalid: ${parsed.error.message}`;
}

async function openaiCall(ctx: RouteContext, x: Exchange, headers: Record<string, string>): Promise<void> {
  const body = x.record.body;
  if (!isObj(body))
    return sendJson(x.res, openaiBadRequest('We could not parse the JSON body of your request.'), headers);
  if (typeof body.model !== 'string')
    return sendJson(x.res, openaiBadRequest('you must provide a model parameter', 'model'), headers);
  if (!Array.isArray(body.messages))
    return sendJson(x.res, openaiBadRequest("Missing required parameter: 'messages'.", 'messages'), headers);
  const s = await step(ctx, x);
  if (typeof s === 'string') return sendJson(x.res, openaiBadRequest(s), headers);
  if (s.type === 'hang') return untilClosed(x.closed);
  if (s.type === 'error') return sendJson(x.res, openaiFailure(s, body.model), headers);
  const plan = planReply(s, x.record, 'call_');
  const streamOptions = isObj(body.stream_options) ? body.stream_options : {};
  const wire = {
    id: rid('chatcmpl-'),
    model: body.model,
    created: Math.floor(Date.now() / 1000),
    includeUsage: streamOptions.include_usage === true,
  };
  const common = {
    res: x.res,
    closed: x.closed,
    plan,
    headers,
    onCut: () => (x.record.outcome = 'cut'),
    onChunk: () => x.record.chunksSentAt.push(Date.now()),
  };
  if (body.stream === true) return sendStream({ ...common, ...openaiStream(plan, wire) });
  return sendWhole({
    ...common,
    answer: openaiCompletion(plan, wire),
    failure: openaiFailure({ type: 'error', error: 'server-error' }, body.model),
  });
}

async function anthropicCall(ctx: RouteContext, x: Exchange, headers: Record<string, string>): Promise<void> {
  const body = x.record.body;
  const bad = (m: string): JsonAnswer => anthropicBadRequest(m);
  if (!isObj(body))
    return sendJson(x.res, bad('There was an issue with the format or content of your request.'), headers);
  if (typeof body.model !== 'string') return sendJson(x.res, bad('model: Field required'), headers);
  if (typeof body.max_tokens !== 'number') return sendJson(x.res, bad('max_tokens: Field required'), headers);
  if (!Array.isArray(body.messages)) return sendJson(x.res, bad('messages: Field required'), headers);
  const s = await step(ctx, x);
  if (typeof s === 'string') return sendJson(x.res, bad(s), headers);
  if (s.type === 'hang') return untilClosed(x.closed);
  if (s.type === 'error') return sendJson(x.res, anthropicFailure(s), headers);
  const plan = planReply(s, x.record, 'toolu_');
  const wire = { id: rid('msg_'), model: body.model };
  const common = {
    res: x.res,
    closed: x.closed,
    plan,
    headers,
    onCut: () => (x.record.outcome = 'cut'),
    onChunk: () => x.record.chunksSentAt.push(Date.now()),
  };
  if (body.stream === true) return sendStream({ ...common, ...anthropicStream(plan, wire) });
  return sendWhole({
    ...common,
    answer: anthropicMessage(plan, wire),
    failure: anthropicFailure({ type: 'error', error: 'overloaded' }),
  });
}
