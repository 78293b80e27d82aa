/**
 * The conversation as a model reads it, rebuilt from the stored messages at every step, so what a
 * model is sent is always what the conversation shows: the person's messages, the model's answers,
 * its tool calls with their results (bounded: bound.ts), and the tools the person ran themselves,
 * as a note of what ran and what it returned. Never sent: passthrough text (people paste keys into
 * setup wizards), user commands a plugin does not share with models (and their results), system
 * notes, MCP servers' forms and sampling cards, and messages that hold nothing. Attached files go
 * with the person's message they came with.
 */
import type { ImagePart, ModelMessage, TextPart, ToolResultPart, UserContent } from 'ai';
import { textBlock, textOf } from '../../../shared/attachments';
import { resultText } from '../../../shared/chunks';
import type { ChatMessage } from '../../../shared/contract';
import type { StoredFile } from '../store';
import { boundForModel } from './bound';

type AssistantPart =
  { type: 'text'; text: string } | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown };

/** Spaces and characters that do not show, as they may sit inside a tag a model reads. */
const GAP = '[\\s\\u00ad\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\ufeff]*';
/** `tool-output` as a reader may take it: any case, any dash or gap between the words. */
const WORDS = `tool(?:${GAP}[-_\\u2010-\\u2015\\u2212\\ufe58\\ufe63\\uff0d]?${GAP})output`;
const TAG_LIKE = new RegExp(`<(${GAP}\\/?${GAP})(${WORDS})`, 'gi');
const ESCAPED = new RegExp(`&lt;(${GAP}\\/?${GAP})(${WORDS})`, 'gi');

/**
 * Results are data: what a plugin returned reaches the model inside a `<tool-output>` block that
 * names the plugin and tool and says it is untrusted, and the system prompt says what that means
 * (system-prompt.ts). A result cannot close the block early or open another: whatever in it reads
 * like the tag is written `&lt;…`: `</tool-output`, and `< /tool-output`, `</tool‐output` (another
 * dash), `<\u200b/tool-output` (red team R6a) too.
 */
export function untrusted(from: string, text: string): string {
  const data = text.replace(TAG_LIKE, '&lt;$1$2');
  return `<tool-output from="${from.replace(/["<>\n]/g, '_')}" trust="untrusted">\n${data}\n</tool-output>`;
}

/** The data inside an untrusted block, for a receiver that gets it in a field of its own (an agent plugin's `agent.tool_result`). */
export function untrustedData(text: string): string {
  const m = /^<tool-output from="[^"]*" trust="untrusted">\n([\s\S]*)\n<\/tool-output>$/.exec(text);
  return m ? (m[1] as string).replace(ESCAPED, '<$1$2') : text;
}

/** What a tool's card says happened, as the model's tool result. */
export function toolResultOutput(m: ChatMessage): ToolResultPart['output'] {
  const from = `${m.pluginId ?? '?'}:${m.tool ?? '?'}`;
  const approval = m.call?.approval;
  // A call refused before any decision (not offered, arguments that do not fit) says why.
  if (approval?.state === 'denied' && m.status === 'error' && m.failure)
    return { type: 'error-text', value: `${m.failure.code}: ${m.failure.message}` };
  if (approval?.state === 'denied') {
    const reason = {
      person: 'the user denied this call',
      // `plugboard chat --approve none`: the person's answer, given before the call.
      flag: 'the user denied this call (every call that needs approval is denied here)',
      policy: 'this tool may not be called by a model here (its policy is deny)',
    }[approval.by ?? 'policy'];
    return { type: 'execution-denied', reason };
  }
  const output = m.text || (m.result === undefined ? '' : resultText(m.result));
  if (m.status === 'cancelled')
    return {
      type: 'error-text',
      value: `the call was stopped before it finished${output ? `; it had written:\n${untrusted(from, boundForModel(output).text)}` : ''}`,
    };
  // A failure's message may carry the plugin's own words (its error, its stderr): data too.
  if (m.failure)
    return {
      type: 'error-text',
      value: untrusted(
        from,
        boundForModel(`${m.failure.code}: ${m.failure.message}${output ? `\n${output}` : ''}`).text,
      ),
    };
  return { type: 'text', value: untrusted(from, boundForModel(output || '(the tool returned nothing)').text) };
}

/** How much of a card's output the model does not get (0: all of it). */
export function cutForModel(m: ChatMessage): number {
  return boundForModel(m.text || (m.result === undefined ? '' : resultText(m.result))).cut;
}

export interface Files {
  /** An attached file with its bytes; null when the store has lost it. */
  file(id: string): StoredFile | null;
  /** Whether the model takes images; where not, each is named in words instead. */
  images: boolean;
}

const NO_FILES: Files = { file: () => null, images: false };

/**
 * The person's message with its files: each text file as a delimited block after the words,
 * each image as an image part (or, for a model that takes none, a line saying one was there).
 */
function userContent(m: ChatMessage, files: Files): UserContent {
  const said = m.enriched ?? m.text;
  if (!m.attachments?.length) return said;
  const parts: Array<TextPart | ImagePart> = said ? [{ type: 'text', text: said }] : [];
  for (const a of m.attachments) {
    const f = files.file(a.id);
    if (!f) parts.push({ type: 'text', text: `(The user attached ${a.name}, which is no longer available.)` });
    else if (f.kind === 'text') parts.push({ type: 'text', text: textBlock(f.name, textOf(f.bytes) ?? '') });
    else if (files.images) parts.push({ type: 'image', image: f.bytes, mediaType: f.mime });
    else
      parts.push({
        type: 'text',
        text: `(The user attached the image ${f.name}; this model cannot see images, so it was not sent.)`,
      });
  }
  return parts;
}

export function modelMessages(messages: readonly ChatMessage[], files: Files = NO_FILES): ModelMessage[] {
  const out: ModelMessage[] = [];
  let parts: AssistantPart[] = [];
  let results: ToolResultPart[] = [];
  const flush = (): void => {
    if (parts.length > 0) out.push({ role: 'assistant', content: parts });
    if (results.length > 0) out.push({ role: 'tool', content: results });
    parts = [];
    results = [];
  };
  for (const m of messages) {
    if (m.passthrough || m.unshared || m.replaced) continue;
    // What an MCP server asked of the person (a form) or of the model (sampling) was between the
    // server and them: it is not a call the model made, and the person's answers stay out.
    if (m.call?.sampling || m.call?.question?.form) continue;
    // A call an MCP App made was between the person and the App (ui/message is how an App speaks to the model).
    if (m.call?.fromApp) continue;
    if (m.role === 'user') {
      flush();
      out.push({ role: 'user', content: userContent(m, files) });
    } else if (m.role === 'assistant') {
      // A new answer after tool results is the model's next step: its own message.
      if (results.length > 0) flush();
      // An answer that broke off is not what the model said: a retry must not build on it.
      if (m.text && m.status !== 'error') parts.push({ type: 'text', text: m.text });
    } else if (m.role === 'plugin' && m.call) {
      parts.push({ type: 'tool-call', toolCallId: m.call.id, toolName: m.call.name, input: m.args ?? {} });
      results.push({ type: 'tool-result', toolCallId: m.call.id, toolName: m.call.name, output: toolResultOutput(m) });
    } else if (m.role === 'plugin' && m.pluginId && (m.text || m.result !== undefined)) {
      flush();
      const args = m.args && Object.keys(m.args).length > 0 ? ` with ${JSON.stringify(m.args)}` : '';
      const outcome = toolResultOutput(m);
      const said = outcome.type === 'text' || outcome.type === 'error-text' ? outcome.value : '';
      out.push({
        role: 'user',
        content: `(I ran the tool ${m.pluginId}:${m.tool ?? '?'}${args} myself. ${m.failure ? 'It failed' : 'It returned'}:)\n${said}`,
      });
    }
  }
  flush();
  return out;
}
