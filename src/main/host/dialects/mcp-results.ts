/**
 * What a person sees of an MCP `tools/call` result: structured content, else the text, else the
 * content blocks; a result flagged `isError` is the tool's failure.
 */
import { failure } from '../../../shared/failures';
import type { CallOutcome } from './types';
import { asRecord, describeValue } from './values';

/** A `tools/call` result as a call outcome: its data, or the error it reports. */
export function toolOutcome(result: unknown): CallOutcome {
  const r = asRecord(result) ?? {};
  if (r.content !== undefined && !Array.isArray(r.content)) {
    return failure('malformed_response', `tools/call result content must be an array, got ${describeValue(r.content)}`);
  }
  const data = resultData(r);
  if (r.isError === true) {
    return failure(
      'plugin_error',
      typeof data === 'string' ? data : `the tool reported an error: ${describeValue(data)}`,
      { data: result },
    );
  }
  return { ok: true, value: { success: true, data, keepSession: false } };
}

/** What a person wants to see of a tool result: structured content, else the text, else the blocks. */
function resultData(r: Record<string, unknown>): unknown {
  if (r.structuredContent !== undefined) return r.structuredContent;
  const content = Array.isArray(r.content) ? r.content : [];
  const texts = content.map((c) => asRecord(c)).filter((c) => c?.type === 'text' && typeof c.text === 'string');
  if (texts.length === content.length) return texts.map((c) => c?.text as string).join('\n');
  return content;
}
