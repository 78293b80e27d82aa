/**
 * A long conversation written into a data directory before `plugboard serve` opens it, through
 * the app's own conversation store: 1,000 messages, each third a model's tool-call card with its
 * output, then the model's answer in markdown, as a long assistant session leaves them.
 */
import path from 'node:path';
import { ConversationStore } from '../../src/main/assistant';
import type { ChatMessage } from '../../src/shared/contract';

export const LONG_TITLE = 'A thousand messages';
export const LONG_MESSAGES = 1000;
export const LONG_LAST_ID = `long-m${LONG_MESSAGES - 1}`;

function message(i: number): ChatMessage {
  const base = { id: `long-m${i}`, createdAt: 1_700_000_000_000 + i * 1000, turnId: `long-t${Math.floor(i / 3)}` };
  switch (i % 3) {
    case 0:
      return { ...base, role: 'user', text: `Question ${i}: count to ${(i % 20) + 1} and tell me what you see.` };
    case 1:
      return {
        ...base,
        role: 'plugin',
        pluginId: 'stress',
        tool: 'count',
        args: { n: 20 },
        status: 'done',
        text: `${Array.from({ length: 20 }, (_, k) => String(k + 1)).join('\n')}\ncounted to 20`,
        call: {
          id: `long-call${i}`,
          name: 'stress__count',
          approval: { state: 'allowed', by: 'person', decision: 'conversation' },
          durationMs: 40 + (i % 17),
        },
      };
    default:
      return {
        ...base,
        role: 'assistant',
        status: 'done',
        model: 'Scripted',
        usage: { inputTokens: 1200 + i, outputTokens: 80 },
        text: `The count went **from 1 to 20**, as asked, for question ${i - 2}.\n\n- every number came once\n- nothing was cut\n\nAsk for another if you like.`,
      };
  }
}

export async function seedLongConversation(dataDir: string): Promise<void> {
  const store = await ConversationStore.open(path.join(dataDir, 'conversations.sqlite'), { report: () => {} });
  try {
    const r = store.create('long', LONG_TITLE, 1_700_000_000_000);
    if (!r.ok) throw new Error(r.message);
    for (let i = 0; i < LONG_MESSAGES; i++) {
      const put = store.putMessage('long', message(i));
      if (!put.ok) throw new Error(put.message);
    }
  } finally {
    store.dispose();
  }
}
