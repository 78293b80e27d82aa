/**
 * What a running MCP server may ask of the host, besides answering it: the folders it may work
 * in (roots), a question to the person (elicitation), and a reply written by the conversation's
 * model (sampling). The host only carries these: who answers is its owner's business (the
 * assistant, which shows a form or an approval card in the conversation the call belongs to).
 * Where nobody can answer (a plugin run from a folder by the CLI, a check), the answer is the
 * safe one: elicitation declined, sampling refused.
 */
import { failure, type Result } from '../../shared/failures';

/**
 * A server's question: its message and the flat JSON Schema of the form it wants filled, or, in
 * URL mode, the http(s) page it wants the person to open (they agree first; "accept" then means
 * the page was opened).
 */
export interface ElicitRequest {
  pluginId: string;
  /** The conversation of the call the server is working on, when one is running. */
  conversationId: string | undefined;
  message: string;
  schema: Record<string, unknown>;
  /** URL mode: the page to open instead of a form. */
  url?: string;
  /** Aborted when the server withdraws the request or the plugin goes away. */
  signal: AbortSignal;
}

export type ElicitReply =
  { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

export interface SampleMessage {
  role: 'user' | 'assistant';
  text: string;
}

/** A server's request for a reply from the model (text messages only). */
export interface SampleRequest {
  pluginId: string;
  conversationId: string | undefined;
  messages: SampleMessage[];
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  signal: AbortSignal;
}

export interface SampleReply {
  text: string;
  /** The model that wrote it, as the provider names it. */
  model: string;
  /** MCP's names where they exist (`endTurn`, `maxTokens`, `stopSequence`), else the provider's. */
  stopReason: string;
}

export interface ServerAsks {
  elicit(req: ElicitRequest): Promise<ElicitReply>;
  sample(req: SampleRequest): Promise<Result<SampleReply>>;
}

/** The answers where no person is there to ask. */
export const NOBODY_TO_ASK: ServerAsks = {
  elicit: () => Promise.resolve({ action: 'decline' }),
  sample: () =>
    Promise.resolve(
      failure(
        'invalid_state',
        'nobody is there to approve a sampling request here (it needs the app, or `plugboard chat` with a model)',
      ),
    ),
};

/**
 * The host's side of an MCP session as the dialect sees it: the supervisor fills in which plugin
 * and which conversation, and holds the call's deadlines while a person answers.
 */
export interface ClientSide {
  /** Absolute paths of the folders the person granted the plugin. */
  roots(): string[];
  elicit(req: Omit<ElicitRequest, 'pluginId' | 'conversationId'>): Promise<ElicitReply>;
  sample(req: Omit<SampleRequest, 'pluginId' | 'conversationId'>): Promise<Result<SampleReply>>;
  /** The server's prompts or resources changed (list_changed): the screen reads them again. */
  featuresChanged(kind: 'prompts' | 'resources'): void;
}
