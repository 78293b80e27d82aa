/**
 * The record of what a client sent, and readers that find the same facts in either provider's
 * request format (the tools offered, the tool results, the last user text), so a test can assert
 * what the model was given without caring which wire it went over.
 */

export type Api = 'openai' | 'anthropic' | 'ollama' | 'unknown';

/** How the server's side of the exchange ended. */
export type Outcome = 'pending' | 'answered' | 'client-closed' | 'cut';

export interface RecordedRequest {
  /** 1-based, in arrival order. */
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Lower-cased names; API keys are left visible on purpose, for tests to check. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body; undefined when there was none or it was not JSON. */
  readonly body: unknown;
  readonly rawBody: string;
  readonly api: Api;
  /** A chat completion or a message: a request that takes a script step. */
  readonly isModelCall: boolean;
  outcome: Outcome;
  /**
   * The server process's clock (performance.now(), ms): when the whole request had arrived, and
   * when the last byte of the answer was handed to the socket. For benchmarks in the same process.
   */
  readonly receivedAt: number;
  answeredAt?: number;
  /**
   * The wall clock (Date.now(), ms) when each chunk of a streamed answer was handed to the socket:
   * comparable across processes on this machine, for latency figures measured in another one
   * (the end-to-end tests time a token from here to the screen).
   */
  readonly chunksSentAt: number[];
}

export interface OfferedTool {
  name: string;
  description: string | undefined;
  /** JSON Schema of the input, as sent. */
  schema: unknown;
}

export interface SentToolResult {
  /** The tool call id the result answers. */
  id: string;
  /**
   * The result as text (content blocks joined); for a plugin's output, the data inside
   * Plugboard's untrusted-output envelope (`raw` has the envelope).
   */
  text: string;
  isError: boolean;
  /** Exactly as sent. */
  raw: string;
  /** The envelope's `from` (`plugin:tool`), where the result came in one. */
  from?: string;
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Text of a content value in either format: a string, or blocks with `text`. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return list(content)
    .map((b) => (isObj(b) && typeof b.text === 'string' ? b.text : ''))
    .join('');
}

function messages(req: RecordedRequest): Obj[] {
  return isObj(req.body) ? list(req.body.messages).filter(isObj) : [];
}

/** The tools the request offered the model. */
export function offeredTools(req: RecordedRequest): OfferedTool[] {
  if (!isObj(req.body)) return [];
  return list(req.body.tools)
    .filter(isObj)
    .map((t) => {
      // OpenAI nests the function; Anthropic puts name and input_schema at the top.
      const f = isObj(t.function) ? t.function : t;
      return {
        name: String(f.name),
        description: typeof f.description === 'string' ? f.description : undefined,
        schema: req.api === 'anthropic' ? f.input_schema : f.parameters,
      };
    });
}

/** Plugboard's envelope around a tool's output (assistant/loop/history.ts: results are data). */
const ENVELOPE = /^<tool-output from="([^"]*)" trust="untrusted">\n([\s\S]*)\n<\/tool-output>$/;

/** A result as sent, and the data inside its envelope (`text`: what the plugin returned). */
function sentResult(id: string, raw: string, isError: boolean): SentToolResult {
  const m = ENVELOPE.exec(raw);
  return { id, text: m ? (m[2] as string) : raw, isError, raw, ...(m ? { from: m[1] as string } : {}) };
}

/** Every tool result the request carried, oldest first. */
export function toolResults(req: RecordedRequest): SentToolResult[] {
  const out: SentToolResult[] = [];
  for (const m of messages(req)) {
    if (m.role === 'tool') {
      out.push(sentResult(String(m.tool_call_id), contentText(m.content), false));
      continue;
    }
    if (m.role !== 'user') continue;
    for (const block of list(m.content).filter(isObj)) {
      if (block.type !== 'tool_result') continue;
      out.push(sentResult(String(block.tool_use_id), contentText(block.content), block.is_error === true));
    }
  }
  return out;
}

/** The text of the last user message that has any (Anthropic sends tool results as user messages). */
export function lastUserText(req: RecordedRequest): string | undefined {
  for (const m of [...messages(req)].reverse()) {
    if (m.role !== 'user') continue;
    const t = contentText(m.content);
    if (t !== '') return t;
  }
  return undefined;
}

/** The system prompt: OpenAI's system messages, or Anthropic's `system` field. */
export function systemText(req: RecordedRequest): string | undefined {
  if (!isObj(req.body)) return undefined;
  if (req.body.system !== undefined) return contentText(req.body.system);
  const sys = messages(req).filter((m) => m.role === 'system' || m.role === 'developer');
  return sys.length > 0 ? sys.map((m) => contentText(m.content)).join('\n') : undefined;
}

/** Fills the templates a JSON script may use in its text. */
export function fillTemplates(text: string, req: RecordedRequest): string {
  return text
    .replaceAll('{{last_tool_result}}', () => toolResults(req).at(-1)?.text ?? '')
    .replaceAll('{{last_user_text}}', () => lastUserText(req) ?? '');
}
