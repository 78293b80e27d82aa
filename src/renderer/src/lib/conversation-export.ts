/**
 * A conversation as a file the person keeps: Markdown to read and share, JSON with everything the
 * app stored (to process with tools). Pure, so it is tested without a page.
 */
import { describeBytes } from '../../../shared/attachments';
import { resultText } from '../../../shared/chunks';
import type { ChatMessage, Conversation } from '../../../shared/contract';

export type ExportFormat = 'markdown' | 'json';

/** A code fence longer than any run of backticks in `text`, so the text cannot close it. */
function fence(text: string, lang = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${lang}\n${text}\n${f}`;
}

function who(m: ChatMessage, pluginName: (id: string) => string): string {
  if (m.role === 'user') return 'You';
  if (m.role === 'assistant') return m.model ? `Assistant (${m.model})` : 'Assistant';
  if (m.role === 'system') return 'Plugboard';
  const name = m.pluginId ? pluginName(m.pluginId) : 'Plugin';
  return m.tool ? `${name} · ${m.tool}` : name;
}

const STATUS_WORD: Record<string, string> = { error: 'failed', cancelled: 'stopped' };

function messageMarkdown(m: ChatMessage, pluginName: (id: string) => string): string {
  const status = m.status ? STATUS_WORD[m.status] : undefined;
  const parts = [`### ${who(m, pluginName)}${status ? ` (${status})` : ''} · ${new Date(m.createdAt).toISOString()}`];
  if (m.args && Object.keys(m.args).length > 0) parts.push(fence(JSON.stringify(m.args, null, 2), 'json'));
  if (m.passthrough && !m.text) parts.push('_(passthrough exchange: its text is not stored)_');
  else if (m.text) parts.push(m.role === 'plugin' ? fence(m.text) : m.text);
  // The files themselves stay in the app: the export names them (the JSON has their ids and types).
  if (m.attachments?.length)
    parts.push(
      `_Attached: ${m.attachments.map((a) => `${a.name} (${a.kind === 'image' ? 'image' : 'text'}, ${describeBytes(a.size)})`).join(', ')}_`,
    );
  if (m.result !== undefined && m.result !== null)
    parts.push(fence(resultText(m.result), typeof m.result === 'string' ? '' : 'json'));
  if (m.failure && m.status !== 'cancelled')
    parts.push(`> **${m.failure.code}**: ${m.failure.message.replace(/\n/g, '\n> ')}`);
  return parts.join('\n\n');
}

export function conversationMarkdown(
  c: Conversation,
  pluginName: (id: string) => string = (id) => id,
  now = Date.now(),
): string {
  const head = `# ${c.title || 'Untitled'}\n\n_Exported from Plugboard on ${new Date(now).toISOString()}, ${c.messages.length} messages._`;
  return `${[head, ...c.messages.map((m) => messageMarkdown(m, pluginName))].join('\n\n')}\n`;
}

export function conversationJson(c: Conversation, now = Date.now()): string {
  const { runningTurns: _running, passthrough: _passthrough, ...kept } = c;
  return `${JSON.stringify({ format: 'plugboard.conversation', version: 1, exportedAt: new Date(now).toISOString(), conversation: kept }, null, 2)}\n`;
}

/** A file name from the title: letters, digits and dashes, never empty. */
export function exportFileName(title: string, format: ExportFormat): string {
  const base =
    title
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .toLowerCase() || 'conversation';
  return `${base}.${format === 'markdown' ? 'md' : 'json'}`;
}
