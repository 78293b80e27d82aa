/**
 * Chat state. Messages live in one flat map by id, and each conversation keeps only the order
 * of its ids: a stream chunk then replaces exactly one message object, so only the row showing
 * that message re-renders, and the list (which selects the ids) does not.
 *
 * The store holds state only; what changes it lives next door: actions.ts (what the user does),
 * turns.ts (events), sync.ts (snapshots), with running.ts keeping which turns run. This file is
 * the shape and small helpers, and imports none of them.
 */
import { create } from 'zustand';
import type { ChatMessage, ConversationSummary } from '../../../../shared/contract';
import { NO_RUNNING, type RunningIndex } from './running';

export interface Passthrough {
  pluginId: string;
  pluginName: string;
}

export interface ConvState {
  ids: string[];
  loaded: boolean;
  loadError: string | null;
  passthrough: Passthrough | null;
  /** The conversation's model (a configured model's name); null: the default one. */
  model: string | null;
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
  /**
   * The running turns, with their conversation (running.ts): what the Stop button cancels, the
   * running mark in the conversation list, and the "thinking" row while no message streams.
   */
  running: RunningIndex;
}

export const useChat = create<ChatState>()(() => ({
  list: [],
  listLoaded: false,
  listError: null,
  activeId: null,
  convs: {},
  messages: {},
  local: {},
  running: NO_RUNNING,
}));

export const emptyConv: ConvState = { ids: [], loaded: false, loadError: null, passthrough: null, model: null };

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
