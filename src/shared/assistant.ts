/**
 * The assistant's shapes, shared by the main process and the UI: the models a person connects,
 * the tool-call cards and approvals of a model's turn, and what the "Connect a model" card offers.
 */
export const PROVIDER_KINDS = ['openai-compatible', 'openai', 'anthropic'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export const PROVIDER_TITLES: Record<ProviderKind, string> = {
  'openai-compatible': 'OpenAI-compatible (Ollama, LM Studio, llama.cpp, vLLM, Jan, OpenRouter…)',
  openai: 'OpenAI',
  anthropic: 'Anthropic',
};

/** A model as the person configured it. Its API key lives in the secret store, never here. */
export interface ModelConfig {
  /** The person's name for it, unique ("Local Llama", "Claude"). */
  name: string;
  provider: ProviderKind;
  /** The server's API root (with /v1 for OpenAI-compatible servers); null: the provider's own. */
  baseURL: string | null;
  /** The model id the provider knows it by ("llama3.2", "gpt-4.1-mini", "claude-sonnet-4-5"). */
  model: string;
}

export interface ModelView extends ModelConfig {
  hasKey: boolean;
  isDefault: boolean;
}

export interface ModelsView {
  models: ModelView[];
  defaultModel: string | null;
  /** Where API keys are kept, in words. */
  keyStore: string;
}

/** A model server found running on this computer (loopback only). */
export interface DiscoveredServer {
  kind: 'ollama' | 'lmstudio' | 'llamacpp';
  title: string;
  baseURL: string;
  models: string[];
}

export interface ModelCheck {
  latencyMs: number;
  /** The models the server lists, where it lists them. */
  models: string[];
}

/** What happens when a model asks to call a tool: run it, ask the person first, or refuse. */
export type ToolPolicy = 'allow' | 'ask' | 'deny';
export const TOOL_POLICIES: readonly ToolPolicy[] = ['allow', 'ask', 'deny'];

/** The person's answer to an approval card (its four buttons). */
export type ApprovalDecision = 'once' | 'conversation' | 'always' | 'deny';

/** Who decided about a call: the tool's policy, the person, or a flag (`plugboard chat --approve`). */
export type DecidedBy = 'policy' | 'person' | 'flag';

export interface ApprovalState {
  /** `queued`: it will ask once the prompt before it is answered; `pending`: it asks now. */
  state: 'queued' | 'pending' | 'allowed' | 'denied';
  by?: DecidedBy;
  decision?: ApprovalDecision;
}

/** A model's call to a tool, as its card shows it (on a `plugin` message). */
export interface ToolCallInfo {
  /** The model's id for the call. */
  id: string;
  /** The name the model used (`plugin__tool`). */
  name: string;
  approval: ApprovalState;
  /** From the approval (or the start) to the result. */
  durationMs?: number;
  /** Characters of the output the model did not get (its head and tail were sent, the middle cut). */
  cutForModel?: number;
}

export interface TokenUsage {
  inputTokens: number | null;
  outputTokens: number | null;
}

/** What a system note offers besides its text. */
export type NoteCard = { type: 'connect-model'; suggestions: Array<{ plugin: string; tool: string }> };

/** A model turn that failed and may be run again: the UI offers Retry. */
export interface RetryInfo {
  /** The provider asked to wait this long first (a rate limit's retry-after). */
  afterMs?: number;
}
