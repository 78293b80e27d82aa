/**
 * Chat state. Messages live in one flat map by id, and each conversation keeps only the order
 * of its ids: a stream chunk then replaces exactly one message object, so only the row showing
 * that message re-renders, and the list (which selects the ids) does not.
 *
 * The actions live next door (actions.ts, turns.ts); this file is the shape and small helpers.
 */
import { create } from 'zustand';
import type { ChatMessage, ConversationSummary } from '../../../../shared/contract';

export interface Passthrough {
  pluginId: string;
  pluginName: string;
}

export interface ConvState {
  ids: string[];
  loaded: boolean;
  loadError: string | null;
  passthrough: Passthrough | null;
}

/** A user message shown before the server has it (optimistic), and how its sending went. */
export interface LocalSend {
  conversationId: string;
  state: 'sending' | 'sent' | 'failed';
  error?: string;
}

export interface ChatState {
  list: ConversationSummary[];
  listLoaded: boolean;
  listError: string | null;
  activeId: string | null;
  convs: Record<string, ConvState | undefined>;
  messages: Record<string, ChatMessage | undefined>;
  local: Record<string, LocalSend | undefined>;
  /** Turns that are running, per conversation: the Stop button cancels these. */
  running: Record<string, string[] | undefined>;
}

export const useChat = create<ChatState>()(() => ({
  list: [],
  listLoaded: false,
  listError: null,
  activeId: null,
  convs: {},
  messages: {},
  local: {},
  running: {},
}));

export const emptyConv: ConvState = { ids: [], loaded: false, loadError: null, passthrough: null };

export function convOf(s: ChatState, id: string): ConvState {
  return s.convs[id] ?? emptyConv;
}

export function patchConv(id: string, fn: (c: ConvState) => Partial<ConvState>): void {
  useChat.setState((s) => {
    const c = convOf(s, id);
    return { convs: { ...s.convs, [id]: { ...c, ...fn(c) } } };
  });
}

export function sortList(list: ConversationSummary[]): ConversationSummary[] {
  return [...list].sort((a, b) => b.updatedAt - a.updatedAt);
}

export function setRunning(conversationId: string, fn: (turns: string[]) => string[]): void {
  useChat.setState((s) => {
    const next = fn(s.running[conversationId] ?? []);
    return { running: { ...s.running, [conversationId]: next.length > 0 ? next : undefined } };
  });
}
