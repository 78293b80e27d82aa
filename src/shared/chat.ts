/**
 * Conversations as the contract carries them: messages (a person's, a model's answer, a plugin's
 * output, a tool-call card, a system note), conversation summaries and search hits, and the turn
 * events that stream them to the UI. Types only; re-exported by contract.ts.
 */
import type {
  Enrichment,
  NoteCard,
  PlanView,
  RequestInfo,
  RetryInfo,
  TokenTotals,
  TokenUsage,
  ToolCallInfo,
} from './assistant';
import type { AppCard } from './apps';
import type { AttachmentInfo } from './attachments';
import type { Failure } from './failures';

export type MessageStatus = 'streaming' | 'done' | 'error' | 'cancelled';

export interface ChatMessage {
  id: string;
  /** `assistant`: a model's answer; `plugin`: a tool call (the person's, or a model's with `call`). */
  role: 'user' | 'plugin' | 'system' | 'assistant';
  createdAt: number;
  /** User text, a system note, a model's answer, or the plugin's streamed text so far. */
  text: string;
  /** For plugin messages. */
  pluginId?: string;
  tool?: string;
  args?: Record<string, unknown>;
  turnId?: string;
  status?: MessageStatus;
  /** The result when it is not text. */
  result?: unknown;
  failure?: Failure;
  /** The turn kept a passthrough session open. */
  keepSession?: boolean;
  /** A passthrough turn: its text (the user's and the plugin's) is never stored. */
  passthrough?: boolean;
  /** A model's call to a tool: the card's approval and timing. */
  call?: ToolCallInfo;
  /** For assistant messages: the model that answered (its configured name), and what it cost. */
  model?: string;
  usage?: TokenUsage;
  /** A failed model turn that can run again. */
  retry?: RetryInfo;
  /** What a system note offers besides its text. */
  card?: NoteCard;
  /** What the model was sent for the step this message began (on its answer, or its first card). */
  request?: RequestInfo;
  /** A plan shown as a checklist (the message of a plan turn). */
  plan?: PlanView;
  /** A user command whose plugin keeps it from models (share_with_model false), and its result. */
  unshared?: boolean;
  /** The person's message as enriched by plugins: what the model reads instead of `text`. */
  enriched?: string;
  /** What each enricher did (added, rewrote, was skipped), by whom. */
  enrichment?: Enrichment[];
  /** Files the person attached (their bytes: `chat.attachment`). */
  attachments?: AttachmentInfo[];
  /**
   * An earlier version: the person edited a message at or before it, or asked for the answer
   * again. Kept and shown on request; never sent to a model.
   */
  replaced?: boolean;
  /** An MCP tool's App, shown in the card: its resource, and the call's result once there is one. */
  app?: AppCard;
}

export interface SaveState {
  unsaved: number;
  failure: Failure | null;
}

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
  messageCount: number;
}

/** A conversation found by full-text search; `marks` are [start, end) of the matched words in `snippet.text`. */
export interface ConversationHit {
  conversationId: string;
  title: string;
  updatedAt: number;
  snippet: { text: string; marks: [number, number][] };
}

export interface Conversation extends ConversationSummary {
  messages: ChatMessage[];
  /** The model this conversation uses (a configured model's name); null: the default model. */
  model: string | null;
  /** Turns running now: what Stop stops. */
  runningTurns: string[];
  /** Tokens its models' answers took, summed. */
  tokens: TokenTotals;
  /** The plugin the composer talks to directly, when a passthrough session is open. */
  passthrough: { pluginId: string; pluginName: string } | null;
}

/**
 * One update to a conversation. A turn (a tool call, a passthrough turn, a model's answer with its
 * tool calls) is framed by `turn` events: `running: true` before anything of it, `running: false`
 * after its last message ended; the Stop button follows them. Within it, each message arrives as
 * `start` (the message, usually empty and streaming; sent again when its other fields change, as an
 * approval), any number of `stream` pieces (batched: a snapshot from `chat.get` already holds every
 * piece sent before it), and `end` with the final message. A user message or a system note arrives
 * as a single `end` whose `turnId` is the message's id. Streams are coalesced per frame by the UI.
 */
export type TurnEvent =
  | {
      type: 'turn';
      conversationId: string;
      turnId: string;
      running: boolean;
      /** At the end of a model's turn: the tokens its requests took, summed (estimates marked). */
      usage?: TokenUsage;
    }
  | { type: 'start'; conversationId: string; turnId: string; message: ChatMessage }
  | { type: 'stream'; conversationId: string; turnId: string; messageId: string; text: string }
  | {
      type: 'end';
      conversationId: string;
      turnId: string;
      message: ChatMessage;
      /**
       * The message's text is not in this event: it is its `start`'s text and the `stream` pieces
       * after it, all of which this client received (a long output is not sent twice; see
       * server/websocket.ts). `message.text` is then empty.
       */
      textStreamed?: true;
    };
