/** The middle of the window: the open conversation's messages and the composer. */
import type { JSX } from 'react';
import { useChat } from '../../stores/chat/state';
import { Composer } from './Composer';
import { MessageList } from './MessageList';

export function ChatView(): JSX.Element {
  const activeId = useChat((s) => s.activeId);
  return (
    // Which conversation is open, for scripts and tests that switch conversations and must know when it happened.
    <main className="flex min-w-0 flex-1 flex-col bg-bg" aria-label="Chat" data-conversation={activeId ?? ''}>
      <MessageList conversationId={activeId} />
      <Composer />
    </main>
  );
}
