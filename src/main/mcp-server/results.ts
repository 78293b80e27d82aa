/**
 * A plugin's call as another app receives it: each stream chunk as `notifications/progress`
 * (when the app sent a progress token), and the end as a `tools/call` result: the output as text
 * content, structured content where the plugin gave an object, and a failure as a result with
 * `isError` whose text starts with its code, as the app shows it.
 *
 * What the text holds follows the app's card: for most protocols the chunks the plugin streamed
 * are its output (G-Assist `stream`, Mehrhof `stream`, planner chunks), so the text is them and
 * then the completion's text; an MCP server's progress notifications are not its output, so its
 * result is its own content alone, passed on as it is (images and links included).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BoundedText } from '../../shared/bounded-text';
import { chunkText, resultText } from '../../shared/chunks';
import { describeFailure, type Failure } from '../../shared/failures';
import type { CallEvent, Dialect } from '../../shared/plugin';

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);

export class CallResult {
  private readonly streamed = new BoundedText();
  private chunks = 0;
  private final: Exclude<CallEvent, { type: 'stream' }> | undefined;

  constructor(
    private readonly dialect: Dialect,
    /** Where each chunk goes as progress; absent when the app sent no progress token. */
    private readonly progress?: (p: Progress) => void,
  ) {}

  onEvent = (e: CallEvent): void => {
    if (e.type !== 'stream') {
      this.final = e;
      return;
    }
    const text = chunkText(e.data);
    if (this.dialect !== 'mcp') this.streamed.append(text);
    this.chunks += 1;
    if (!this.progress) return;
    // An MCP server's own numbers go on as they were; any other chunk counts one step.
    const d = e.data as { progress?: unknown; total?: unknown } | null;
    const own = this.dialect === 'mcp' && typeof d?.progress === 'number';
    this.progress({
      progress: own ? (d?.progress as number) : this.chunks,
      ...(own && typeof d?.total === 'number' ? { total: d.total } : {}),
      ...(text && !own ? { message: text } : {}),
    });
  };

  /** The result of the call once its last event came (a failure if none did). */
  result(): CallToolResult {
    const e = this.final;
    if (!e) return errorResult({ ok: false, code: 'cancelled', message: 'the call ended without a result' });
    if (e.type === 'error') return errorResult(e.failure, this.streamed.toString());
    if (this.dialect === 'mcp') {
      const data = e.data;
      if (Array.isArray(data) && data.every((c) => CONTENT_TYPES.has((c as { type?: unknown })?.type as string)))
        return { content: data as CallToolResult['content'] };
    }
    const content: CallToolResult['content'] = [];
    const isObject = typeof e.data === 'object' && e.data !== null && !Array.isArray(e.data);
    let text = this.streamed.toString();
    const body = resultText(e.data);
    if (body) text = text && !text.endsWith('\n') ? `${text}\n\n${body}` : text + body;
    if (text) content.push({ type: 'text', text });
    const out: CallToolResult = { content };
    if (isObject) out.structuredContent = e.data as Record<string, unknown>;
    if (!e.success) {
      out.isError = true;
      content.unshift({ type: 'text', text: 'plugin_error: the plugin reported success: false' });
    }
    return out;
  }
}

/** A failure as a tool result: `code: message` (and the facts that help), then any output streamed before it. */
export function errorResult(f: Failure, streamed = ''): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: describeFailure(f) }];
  if (streamed) content.push({ type: 'text', text: streamed });
  return { content, isError: true };
}
