/** A conversation saved as Markdown or JSON: what a person reading the file would check. */
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/shared/contract';
import { failure } from '../../src/shared/failures';
import { conversationJson, conversationMarkdown, exportFileName } from '../../src/renderer/src/lib/conversation-export';

const at = Date.UTC(2026, 10, 23, 12, 0, 0);
const conv: Conversation = {
  id: 'c1',
  title: 'Terminal: run — ls ```weird```',
  updatedAt: at,
  messageCount: 4,
  model: null,
  runningTurns: [],
  tokens: { inputTokens: 0, outputTokens: 0, estimated: false },
  passthrough: null,
  messages: [
    { id: 'u', role: 'user', createdAt: at, text: '/terminal:run command="ls"' },
    {
      id: 'a',
      role: 'user',
      createdAt: at,
      text: 'what is this?',
      attachments: [
        { id: 'f1', name: 'notes.md', kind: 'text', mime: 'text/plain', size: 2048 },
        { id: 'f2', name: 'photo.png', kind: 'image', mime: 'image/png', size: 3 * 1024 * 1024 },
      ],
    },
    {
      id: 'p',
      role: 'plugin',
      createdAt: at + 1,
      text: 'a.txt\n```\nb.txt',
      pluginId: 'terminal',
      tool: 'run',
      args: { command: 'ls' },
      status: 'done',
    },
    {
      id: 's',
      role: 'plugin',
      createdAt: at + 2,
      text: '1\n2\n',
      pluginId: 'hello',
      tool: 'count',
      status: 'cancelled',
      failure: failure('cancelled', 'stopped by the user'),
    },
    {
      id: 'f',
      role: 'plugin',
      createdAt: at + 3,
      text: '',
      pluginId: 'hello',
      tool: 'count',
      status: 'error',
      failure: failure('invalid_arguments', 'to: must be a number'),
    },
  ],
};

describe('conversation export', () => {
  const md = conversationMarkdown(conv, (id) => ({ terminal: 'Terminal', hello: 'Hello' })[id] ?? id, at);

  it('writes Markdown with the title, who said what, and plugin output in fences it cannot close', () => {
    expect(md.startsWith('# Terminal: run — ls ```weird```\n')).toBe(true);
    expect(md).toContain('### You · 2026-11-23T12:00:00.000Z');
    expect(md).toContain('### Terminal · run · 2026-11-23T12:00:00.001Z');
    // The output holds a ``` line: the fence around it is longer.
    expect(md).toContain('````\na.txt\n```\nb.txt\n````');
    expect(md).toContain('```json\n{\n  "command": "ls"\n}\n```');
  });

  it('names the files attached to a message, with their kind and size', () => {
    expect(md).toContain('what is this?\n\n_Attached: notes.md (text, 2 KiB), photo.png (image, 3 MiB)_');
    expect(JSON.parse(conversationJson(conv, at)).conversation.messages[1].attachments).toHaveLength(2);
  });

  it('marks a stopped call as stopped, not failed, and quotes a failure', () => {
    expect(md).toContain('### Hello · count (stopped)');
    expect(md).not.toContain('stopped by the user');
    expect(md).toContain('### Hello · count (failed)');
    expect(md).toContain('> **invalid_arguments**: to: must be a number');
  });

  it('writes JSON with every stored message and field, and a format tag', () => {
    const parsed = JSON.parse(conversationJson(conv, at)) as {
      format: string;
      version: number;
      conversation: Conversation;
    };
    expect(parsed.format).toBe('plugboard.conversation');
    expect(parsed.version).toBe(1);
    expect(parsed.conversation.messages).toEqual(conv.messages);
    expect(parsed.conversation).not.toHaveProperty('runningTurns');
  });

  it('names the file after the title', () => {
    expect(exportFileName('Terminal: run — ls -la', 'markdown')).toBe('terminal-run-ls-la.md');
    expect(exportFileName('Été à Paris', 'json')).toBe('ete-a-paris.json');
    expect(exportFileName('!!!', 'json')).toBe('conversation.json');
  });
});
