/**
 * The conversation's messages, virtualized: only rows near the viewport are in the DOM, each row
 * measured as it renders. It sticks to the bottom while output arrives, unless the person
 * scrolled up to read (by wheel or keyboard: the list takes focus); then a "Jump to latest"
 * button brings them back.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type JSX } from 'react';
import { Button } from '../../components/Button';
import { isThinking } from '../../stores/chat/activity';
import { useChat } from '../../stores/chat/state';
import { EmptyChat } from './EmptyChat';
import { MessageRow } from './MessageRow';
import { ThinkingRow } from './ThinkingRow';

const NO_IDS: string[] = [];
/** Within this distance of the bottom counts as "at the bottom". */
const STICK_PX = 48;
const SCROLL_UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);
/** The key of the "thinking" row after the messages, while a turn runs with nothing streaming. */
const THINKING = 'thinking';

export function MessageList({ conversationId }: { conversationId: string | null }): JSX.Element {
  const ids = useChat((s) => (conversationId ? (s.convs[conversationId]?.ids ?? NO_IDS) : NO_IDS));
  const loaded = useChat((s) => (conversationId ? (s.convs[conversationId]?.loaded ?? false) : true));
  const loadError = useChat((s) => (conversationId ? (s.convs[conversationId]?.loadError ?? null) : null));
  const thinking = useChat(
    (s) =>
      conversationId !== null &&
      isThinking(s.running, conversationId, s.convs[conversationId]?.ids ?? NO_IDS, s.messages),
  );
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const lastTop = useRef(0);
  const [away, setAway] = useState(false);

  const virtualizer = useVirtualizer({
    count: ids.length + (thinking ? 1 : 0),
    getScrollElement: () => scroller.current,
    estimateSize: () => 88,
    overscan: 6,
    getItemKey: (i) => ids[i] ?? THINKING,
  });
  const total = virtualizer.getTotalSize();
  const empty = !conversationId || (loaded && ids.length === 0 && !loadError);

  const toBottom = (): void => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  };

  // A different conversation opens at its latest message.
  useEffect(() => {
    stick.current = true;
    setAway(false);
    requestAnimationFrame(toBottom);
  }, [conversationId]);

  // Growth (new rows, a row measured taller while it streams) keeps the bottom in view.
  useLayoutEffect(() => {
    if (stick.current) toBottom();
  }, [total, ids.length, thinking]);

  // So does the viewport getting shorter (the passthrough banner, a taller composer).
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      if (stick.current) toBottom();
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [conversationId, empty]);

  // Following stops only when the view moved up (the person scrolled); content or viewport
  // changes that leave the bottom out of view for a moment do not count.
  const onScroll = (): void => {
    const el = scroller.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    if (atBottom) stick.current = true;
    else if (el.scrollTop < lastTop.current - 1) stick.current = false;
    lastTop.current = el.scrollTop;
    if (away === stick.current) setAway(!stick.current);
  };

  if (empty) return <EmptyChat />;

  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={scroller}
        onScroll={onScroll}
        onWheel={(e) => {
          // Scrolling up is a clear wish to read: stop following at once, before the next chunk.
          if (e.deltaY < 0) stick.current = false;
        }}
        onKeyDown={(e) => {
          // So is a key that scrolls up, when the list has focus.
          if (SCROLL_UP_KEYS.has(e.key) || (e.key === ' ' && e.shiftKey)) stick.current = false;
        }}
        // Focusable, so the keyboard scrolls the history too (arrows, Page Up/Down, Home/End).
        role="region"
        aria-label="Messages"
        tabIndex={0}
        className="ring-inset h-full overflow-y-auto [overflow-anchor:none]"
      >
        <div className="relative mx-auto w-full max-w-[820px] px-6" style={{ height: total + 32 }}>
          {!loaded && !loadError && <p className="pt-8 text-center text-xs text-fg-subtle">Loading…</p>}
          {loadError && (
            <p className="pt-8 text-center text-xs text-bad">Could not load this conversation: {loadError}</p>
          )}
          {virtualizer.getVirtualItems().map((v) => {
            const id = ids[v.index];
            if (!id && !thinking) return null;
            return (
              <div
                key={v.key}
                data-index={v.index}
                ref={virtualizer.measureElement}
                className="absolute left-6 right-6 top-0 pt-4"
                style={{ transform: `translateY(${v.start + 12}px)` }}
              >
                {id ? <MessageRow id={id} /> : <ThinkingRow />}
              </div>
            );
          })}
        </div>
      </div>
      {away && (
        <div className="pointer-events-none absolute inset-x-0 bottom-3 flex justify-center">
          <Button
            size="sm"
            icon="arrowDown"
            className="pointer-events-auto shadow-pop"
            onClick={() => {
              stick.current = true;
              setAway(false);
              toBottom();
            }}
          >
            Jump to latest
          </Button>
        </div>
      )}
    </div>
  );
}
