/**
 * What a person sees of an MCP `tools/call` result: structured content, else the text, else the
 * content blocks; a result flagged `isError` is the tool's failure. A tool with an App is read the
 * way a host without a frame reads it (its `content`'s text, which is also what a model gets; the
 * structured content is the App's), and the result goes along as it is, for the App.
 */
import { failure } from '../../../shared/failures';
import { textOfContent } from './mcp-apps';
import type { CallOutcome } from './types';
import { asRecord, describeValue } from './values';

/** The largest result kept for an App (as JSON): past it, the App gets the result's content blocks. */
const MAX_APP_RESULT_CHARS = 4 * 1024 * 1024;

/** A `tools/call` result as a call outcome: its data, or the error it reports; `appUri`: the tool's App. */
export function toolOutcome(result: unknown, appUri?: string): CallOutcome {
  const r = asRecord(result) ?? {};
  if (r.content !== undefined && !Array.isArray(r.content)) {
    return failure('malformed_response', `tools/call result content must be an array, got ${describeValue(r.content)}`);
  }
  const data = (appUri ? textOfContent(r) : undefined) ?? resultData(r);
  if (r.isError === true) {
    return failure(
      'plugin_error',
      typeof data === 'string' ? data : `the tool reported an error: ${describeValue(data)}`,
      { data: result },
    );
  }
  // A result too large to keep in the conversation reaches the App as its text only.
  const kept = JSON.stringify(r).length <= MAX_APP_RESULT_CHARS ? r : { content: r.content, isError: false };
  const app = appUri ? { app: { resourceUri: appUri, result: kept } } : {};
  return { ok: true, value: { success: true, data, keepSession: false, ...app } };
}

/** What a person wants to see of a tool result: structured content, else the text, else the blocks. */
function resultData(r: Record<string, unknown>): unknown {
  if (r.structuredContent !== undefined) return r.structuredContent;
  const content = Array.isArray(r.content) ? r.content : [];
  const texts = content.map((c) => asRecord(c)).filter((c) => c?.type === 'text' && typeof c.text === 'string');
  if (texts.length === content.length) return texts.map((c) => c?.text as string).join('\n');
  return content;
}
