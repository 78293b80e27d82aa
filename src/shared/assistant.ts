/**
 * The assistant's shapes, shared by the main process and the UI: the models a person connects,
 * the tool-call cards and approvals of a model's turn, and what the "Connect a model" card offers.
 */
import type { DefinitionChange } from './definitions';
import type { ToolAnnotations } from './plugin';

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

/** Models that are installed agent plugins are named `agent:<plugin id>`. */
export const AGENT_MODEL_PREFIX = 'agent:';

export interface ModelView extends Omit<ModelConfig, 'provider'> {
  /** `agent-plugin`: an installed Mehrhof agent plugin; its `model` is the plugin's name. */
  provider: ProviderKind | 'agent-plugin';
  hasKey: boolean;
  isDefault: boolean;
}

export interface ModelsView {
  models: ModelView[];
  defaultModel: string | null;
  /** Where API keys are kept, in words. */
  keyStore: string;
}

/**
 * An installed agent plugin as a model (`agent:<id>`), enabled or not, and whether it can answer:
 * what keeps one from answering is cheap to know without starting it (switched off, a required
 * setting missing); its own `agent.available` is asked when it runs.
 */
export interface AgentModelRow {
  name: string;
  kind: 'agent';
  plugin: string;
  title: string;
  available: boolean;
  /** Why not, and what to do. */
  reason?: string;
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

/**
 * What a model's call gets for a tool the person set no policy for: `read-only` allows the
 * read-only tools of bundled plugins and asks for the rest (the default: an installed plugin's
 * own claim to be read-only is a hint, never a grant); `ask` asks for every call; `allow` runs
 * every call unasked. A tool whose definition changed since asks, whatever the default.
 */
export const APPROVAL_DEFAULTS = ['read-only', 'ask', 'allow'] as const;
export type ApprovalDefault = (typeof APPROVAL_DEFAULTS)[number];

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

/** The assistant's own tools, offered to every model beside the plugins' tools. */
export type BuiltinTool = 'ask_user' | 'find_tools';

/** A model's question to the person (`ask_user`): free text, or one or several of the choices. */
export interface Question {
  question: string;
  choices?: string[];
  /** Several choices may be picked. */
  multiple?: boolean;
  /**
   * A form to fill instead (an MCP server's elicitation): the flat JSON Schema of its fields. The
   * person sends it filled, or declines.
   */
  form?: Record<string, unknown>;
  /** Who asks, when it is not the model (the plugin's name). */
  from?: string;
  /**
   * A page to open instead (an MCP server's URL-mode elicitation): nothing is opened until the
   * person agrees on the card, which names the page's domain.
   */
  page?: { url: string; domain: string };
}

/** An MCP server's request for a reply from the conversation's model, as its approval card shows it. */
export interface SamplingView {
  /** The plugin's name. */
  from: string;
  messages: Array<{ role: 'user' | 'assistant'; text: string }>;
  systemPrompt?: string;
  maxTokens: number;
  /** The model that would write (or wrote) the reply. */
  model: string;
}

/**
 * Text of another plugin's result that a call's arguments carry: the call is held for the person's
 * approval, whatever its policy (assistant/loop/carried.ts).
 */
export interface CarriedText {
  plugin: string;
  /** The plugin's name, for the card. */
  pluginName: string;
  tool: string;
  /** Characters of that result the arguments carry (the longest run). */
  chars: number;
  excerpt: string;
}

/** A model's call to a tool, as its card shows it (on a `plugin` message). */
export interface ToolCallInfo {
  /** The model's id for the call. */
  id: string;
  /** The name the model used (`plugin__tool`). */
  name: string;
  /** Set for the assistant's own tools (no plugin runs them). */
  builtin?: BuiltinTool;
  /** `ask_user`: what is asked; the answer is the message's text once given. */
  question?: Question;
  /** An MCP server's sampling request (no tool runs): approved or denied on its card. */
  sampling?: SamplingView;
  approval: ApprovalState;
  /** What the plugin says of the tool (its annotations): hints the card shows, never a grant. */
  hints?: ToolAnnotations;
  /** The tool's definition differs from the one the person's decisions were made for: what changed. */
  change?: DefinitionChange;
  /** The arguments carry text from another plugin's result: held for approval, naming it. */
  carried?: CarriedText;
  /** From the approval (or the start) to the result. */
  durationMs?: number;
  /** Characters of the output the model did not get (its head and tail were sent, the middle cut). */
  cutForModel?: number;
  /** Asked for by an MCP App, not a model: the id of the message that shows the App. */
  fromApp?: string;
}

export interface TokenUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  /** The provider gave no counts: these are estimates (about 4 characters a token). */
  estimated?: boolean;
}

/** What one request to the model carried (a turn's details). */
export interface RequestInfo {
  /** The tools offered, by their model-facing names (built-ins included). */
  tools: string[];
  /** Exposed tools in all; more than `tools` when the budget chose among them. */
  toolsTotal: number;
  /** Plugins whose system instructions were included, in order; and those left out by the budget. */
  instructionsFrom: string[];
  instructionsLeftOut: string[];
  /** An estimate of the request's size (about 4 characters a token). */
  estimatedTokens: number;
}

/** How the assistant chooses what to send: configurable in Settings. */
export interface AssistantSettings {
  /** Rounds of tool calls a turn may take before it stops and asks. */
  maxSteps: number;
  /** Above either, the model gets the most relevant tools and `find_tools` for the rest. */
  maxTools: number;
  maxToolTokens: number;
  /** Tokens of plugins' system instructions a request may carry. */
  instructionsTokens: number;
}

export const DEFAULT_ASSISTANT_SETTINGS: AssistantSettings = {
  maxSteps: 8,
  maxTools: 40,
  maxToolTokens: 16_000,
  instructionsTokens: 4000,
};

/** The range each setting accepts: the contract checks it, and Settings says it before saving. */
export const ASSISTANT_SETTING_LIMITS: Record<keyof AssistantSettings, { min: number; max: number }> = {
  maxSteps: { min: 1, max: 50 },
  maxTools: { min: 4, max: 512 },
  maxToolTokens: { min: 500, max: 200_000 },
  instructionsTokens: { min: 0, max: 50_000 },
};

/** Tokens spent, summed (a turn, a conversation, a model). */
export interface TokenTotals {
  inputTokens: number;
  outputTokens: number;
  /** Some of the counts were estimates. */
  estimated: boolean;
}

/** What a plugin's prompt enricher did to the person's message, for the transcript. */
export interface Enrichment {
  plugin: string;
  ok: boolean;
  note: string;
  /** The text it added at the end. */
  added?: string;
  /** The whole new text, where it rewrote the message instead. */
  replaced?: string;
}

/** Where a task of a plan stands. */
export type PlanTaskStatus = 'pending' | 'running' | 'done' | 'failed' | 'denied' | 'skipped' | 'cancelled';

export interface PlanTask {
  id: string;
  description: string;
  /** The planner's task type (code_generation, analysis…), passed on to the executor. */
  type?: string;
  dependencies: string[];
  status: PlanTaskStatus;
  /** The tool-call card the task ran as. */
  cardId?: string;
  /** Why it failed, was skipped or denied. */
  note?: string;
}

/** A plan from a planner plugin (`create_plan`), run task by task by an executor (`execute_task`). */
export interface PlanView {
  planner: string;
  executor: string;
  explanation?: string;
  tasks: PlanTask[];
}

/** What a system note offers besides its text. */
export type NoteCard = { type: 'connect-model'; suggestions: Array<{ plugin: string; tool: string }> };

/** A model turn that failed and may be run again: the UI offers Retry. */
export interface RetryInfo {
  /** The provider asked to wait this long first (a rate limit's retry-after). */
  afterMs?: number;
}
