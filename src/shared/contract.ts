/**
 * The API between the UI and the main process, declared once. Every command (request → response)
 * and every event (pushed to the UI) is here, with its types; each command's input has a schema
 * that main (IPC) and the web server (WebSocket) both check before doing anything. The preload
 * turns this into `window.plugboard`; the server into a WebSocket API; the renderer codes against
 * `PlugboardApi` and cannot tell which transport it has.
 */
/* eslint-disable max-lines -- one whole concern: the contract is declared once, every command and event with its schema */
import { z } from 'zod';
import type {
  AgentModelRow,
  ApprovalDefault,
  AssistantSettings,
  DiscoveredServer,
  ModelCheck,
  ModelsView,
  TokenTotals,
  ToolPolicy,
} from './assistant';
import { APPROVAL_DEFAULTS, ASSISTANT_SETTING_LIMITS, PROVIDER_KINDS, TOOL_POLICIES } from './assistant';
import { ATTACHMENT_LIMITS, type AttachmentKind } from './attachments';
import type { Conversation, ConversationHit, ConversationSummary, SaveState, TurnEvent } from './chat';
import type { AppFrameView, AppToolResult } from './apps';
import type { ExternalApprovalView } from './external-approvals';
import { failure, FailureError, type Done, type Failure, type Outcome, type Result } from './failures';
import type { CatalogEntryView, CatalogPageView } from './catalog';
import type { ImportPreviewView, ImportResultView } from './imports';
import type { UpdateCheckView, UpdatePreviewView } from './updates';
import type { PromptFilled, PromptView, ResourceView } from './mcp-features';
import type { HealthEvent, LogEvent, ToolSpec } from './plugin';
import type {
  AppInfo,
  FolderListing,
  InstallDoneView,
  InstallPreviewView,
  InstallTrialView,
  McpClientSnippet,
  PaletteEntry,
  PluginDetail,
  PluginView,
  ProcessStats,
  SandboxStatusView,
} from './views';

// The shapes commands and events carry, declared beside their concern and re-exported from here.
export type { Done } from './failures';
export type { ExternalApprovalView, ExternalDecision } from './external-approvals';
export type {
  ChatMessage,
  Conversation,
  ConversationHit,
  ConversationSummary,
  MessageStatus,
  SaveState,
  TurnEvent,
} from './chat';
export type {
  AppInfo,
  CapabilityView,
  InstallDoneView,
  InstallPreviewView,
  InstallTrialView,
  PackageView,
  PathGrantView,
  LimitsView,
  McpClientSnippet,
  PaletteEntry,
  PluginDetail,
  PluginView,
  ProcessStats,
  SandboxStatusView,
  SettingView,
  SignInView,
  ToolView,
} from './views';

// ---- commands ----------------------------------------------------------------------------------

const id = z.string().min(1).max(200);
const empty = z.object({}).strict();
const installSource = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('path'), path: z.string().min(1).max(4096) }),
  z.object({ kind: z.literal('upload'), uploadId: z.string().regex(/^[a-zA-Z0-9_-]{8,64}$/) }),
]);

/** Setting values as a form gives them (null: left empty, the default applies). */
const settingValues = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]),
);
/** A folder or file granted by path (shared/capabilities.ts FolderGrant). */
const folderGrant = z
  .object({
    path: z
      .string()
      .min(1)
      .max(4096)
      .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'an absolute path'),
    write: z.boolean(),
  })
  .strict();
/** The client's name for the progress events of one install (`install.progress`). */
const progress = z.string().regex(/^[a-zA-Z0-9_-]{8,64}$/);

/** A file attached to a message: its bytes inline (base64), or uploaded first (the web UI, large files). */
const attachmentInput = z.union([
  z
    .object({
      name: z.string().min(1).max(255),
      data: z
        .string()
        .max(Math.ceil(ATTACHMENT_LIMITS.imageBytes / 3) * 4)
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64'),
    })
    .strict(),
  z.object({ name: z.string().min(1).max(255), uploadId: z.string().regex(/^[a-zA-Z0-9_-]{8,64}$/) }).strict(),
]);
export type AttachmentInput = z.infer<typeof attachmentInput>;

const setting = (key: keyof AssistantSettings) =>
  z.number().int().min(ASSISTANT_SETTING_LIMITS[key].min).max(ASSISTANT_SETTING_LIMITS[key].max);
const assistantSettingsInput = z
  .object({
    maxSteps: setting('maxSteps'),
    maxTools: setting('maxTools'),
    maxToolTokens: setting('maxToolTokens'),
    instructionsTokens: setting('instructionsTokens'),
  })
  .partial()
  .strict();

/** A phantom type: carries the output type of a command, no runtime value. */
function returns<T>(): T {
  return undefined as unknown as T;
}

export const commands = {
  'app.info': { input: empty, output: returns<AppInfo>() },
  /** Whether plugins run sandboxed here, with what, and what each capability's grant then means. */
  'app.sandbox': { input: empty, output: returns<SandboxStatusView>() },
  /**
   * A folder's entries by name (folders first), for the path picker of path settings: `path`
   * absolute (`~` is home), the person's home folder when absent; dot-files only with `hidden`.
   */
  'app.listFolder': {
    input: z.object({ path: z.string().max(4096).optional(), hidden: z.boolean().optional() }).strict(),
    output: returns<Outcome<{ listing: FolderListing }>>(),
  },
  /** Opens the data folder in the system's file manager (the desktop app only). */
  'app.openDataFolder': { input: empty, output: returns<Done>() },
  /** What a model's call gets for tools with no per-tool choice. */
  'approvals.default': { input: empty, output: returns<{ policy: ApprovalDefault }>() },
  'approvals.setDefault': {
    input: z.object({ policy: z.enum(APPROVAL_DEFAULTS) }).strict(),
    output: returns<Done>(),
  },
  /** Calls other apps (MCP clients of Plugboard) wait to have approved, oldest first. */
  'approvals.external': { input: empty, output: returns<ExternalApprovalView[]>() },
  /** The person's answer to another app's call; refused when it no longer waits (answered in that app). */
  'approvals.answerExternal': {
    input: z.object({ id: z.string().min(1).max(200), decision: z.enum(['once', 'deny']) }).strict(),
    output: returns<Done>(),
  },
  /** The config snippets that let Claude Desktop, Cursor and VS Code use this Plugboard's plugins (`plugboard mcp`). */
  'app.mcpClients': { input: empty, output: returns<Outcome<{ snippets: McpClientSnippet[] }>>() },
  'plugins.list': { input: empty, output: returns<PluginView[]>() },
  'plugins.detail': { input: z.object({ id }).strict(), output: returns<PluginDetail | null>() },
  'plugins.start': { input: z.object({ id }).strict(), output: returns<Done>() },
  'plugins.stop': { input: z.object({ id }).strict(), output: returns<Done>() },
  'plugins.restart': { input: z.object({ id }).strict(), output: returns<Done>() },
  'plugins.setEnabled': { input: z.object({ id, enabled: z.boolean() }).strict(), output: returns<Done>() },
  'plugins.setExposed': {
    input: z.object({ id, tool: z.string().min(1).optional(), exposed: z.boolean() }).strict(),
    output: returns<Done>(),
  },
  /** Capabilities, and folders or files by path (whatever the plugin requested: `net`, a folder). */
  'plugins.grant': {
    input: z
      .object({ id, capabilities: z.array(z.string().min(1)), folders: z.array(folderGrant).max(100).optional() })
      .strict()
      .refine((x) => x.capabilities.length > 0 || (x.folders?.length ?? 0) > 0, 'nothing to grant'),
    output: returns<Done>(),
  },
  'plugins.revoke': {
    input: z
      .object({ id, capabilities: z.array(z.string().min(1)), folders: z.array(folderGrant).max(100).optional() })
      .strict()
      .refine((x) => x.capabilities.length > 0 || (x.folders?.length ?? 0) > 0, 'nothing to revoke'),
    output: returns<Done>(),
  },
  'plugins.configure': {
    input: z.object({ id, values: z.record(z.string(), z.unknown()) }).strict(),
    output: returns<Done>(),
  },
  /**
   * What a plugin may consume (`{memory: "2G", processes: 256}`, shared/limits.ts), over its
   * manifest's and the defaults; `null` goes back to those. A running plugin restarts with them.
   */
  'plugins.setLimits': {
    input: z
      .object({ id, limits: z.record(z.string().max(40), z.union([z.string().max(40), z.number()])).nullable() })
      .strict(),
    output: returns<Done>(),
  },
  'plugins.uninstall': { input: z.object({ id }).strict(), output: returns<Done>() },
  /**
   * Starts signing in to a remote MCP server (OAuth). Answers once the authorization page is
   * known: its `url`, which the desktop app has already opened in the browser and the web UI
   * opens in a new tab; the sign-in then ends when the browser comes back (the plugin's detail
   * says how it went, and `plugins.changed` announces it).
   */
  'plugins.signIn': {
    input: z.object({ id }).strict(),
    output: returns<Outcome<{ detail: string; url?: string; opened?: boolean }>>(),
  },
  /** Signs out of a remote MCP server: its tokens revoked where the server can, and forgotten. */
  'plugins.signOut': { input: z.object({ id }).strict(), output: returns<Done>() },
  'plugins.logs': { input: z.object({ id }).strict(), output: returns<LogEvent[]>() },
  'plugins.stats': { input: empty, output: returns<Record<string, ProcessStats>>() },
  /** An MCP plugin's resources (`resources/list`), read from its running server; empty for other protocols. */
  'plugins.resources': { input: z.object({ id }).strict(), output: returns<Outcome<{ resources: ResourceView[] }>>() },
  /** An MCP plugin's prompts (`prompts/list`): commands a person runs; empty for other protocols. */
  'plugins.prompts': { input: z.object({ id }).strict(), output: returns<Outcome<{ prompts: PromptView[] }>>() },
  /** A prompt filled in by its server (`prompts/get`): `text` is what goes into the composer. */
  'prompts.get': {
    input: z
      .object({ id, name: z.string().min(1).max(200), args: z.record(z.string(), z.string().max(100_000)) })
      .strict(),
    output: returns<Outcome<{ prompt: PromptFilled }>>(),
  },
  /** Stages the package, installs its runner's package into the staged copy (`install.progress` events), tries it. */
  'install.preview': {
    input: z.object({ source: installSource, progress: progress.optional() }).strict(),
    output: returns<Outcome<{ token: string; preview: InstallPreviewView }>>(),
  },
  /** Installs exactly the staged copy the preview's token names, with the grants chosen. */
  'install.commit': {
    input: z
      .object({
        token: z.string().min(1),
        grants: z.array(z.string()),
        replace: z.boolean(),
        folders: z.array(folderGrant).max(100).optional(),
        progress: progress.optional(),
        /** Installs it under this id, not its manifest's: beside a plugin that has that id. */
        id: id.optional(),
        /** Setting values from the preview's form: the plugin is installed configured. */
        settings: settingValues.optional(),
      })
      .strict(),
    output: returns<Outcome<InstallDoneView>>(),
  },
  /**
   * Tries the preview's staged copy again with the form's values and the grants and folders
   * chosen in the preview, as it would run installed with them; the preview stays to be committed.
   */
  'install.try': {
    input: z
      .object({
        token: z.string().min(1),
        grants: z.array(z.string()),
        folders: z.array(folderGrant).max(100).optional(),
        settings: settingValues.optional(),
      })
      .strict(),
    /** `tools`: what the server announced in the trial (null: none of its own; the preview's list stands). */
    output: returns<Outcome<{ command: string[]; trial: InstallTrialView; tools: ToolSpec[] | null }>>(),
  },
  'install.cancel': { input: z.object({ token: z.string().min(1) }).strict(), output: returns<Done>() },
  /** Another app's MCP config file (claude_desktop_config.json, mcp.json…): its servers, previewed. */
  'import.preview': {
    input: z.object({ source: installSource }).strict(),
    output: returns<Outcome<{ token: string; preview: ImportPreviewView }>>(),
  },
  /**
   * Installs the servers chosen (by key; default: every one that can run here and is not switched
   * off in its app); `secret` names the variables and headers kept as secrets (default: those the
   * preview marks secret).
   * `grants` (by key) are each server's folders by path and whether it gets the network (default:
   * the folders its preview offers, no network); `ids` (by key) a plugin id other than the offered one.
   */
  'import.commit': {
    input: z
      .object({
        token: z.string().min(1),
        only: z.array(z.string().min(1)).min(1).max(200).optional(),
        secret: z.array(z.string().min(1)).max(1000).optional(),
        grants: z
          .record(z.string(), z.object({ net: z.boolean(), folders: z.array(folderGrant).max(100) }).strict())
          .optional(),
        ids: z.record(z.string(), z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/)).optional(),
        /** Servers (by key) to copy into Plugboard and run from there, where the preview offers it. */
        copy: z.array(z.string().min(1)).max(200).optional(),
        progress: progress.optional(),
      })
      .strict(),
    output: returns<Outcome<{ results: ImportResultView[] }>>(),
  },
  /** The catalog (an MCP registry, `v0` API): a page of servers whose name matches `query`. */
  'catalog.search': {
    input: z.object({ query: z.string().max(200), cursor: z.string().min(1).max(500).optional() }).strict(),
    output: returns<Outcome<{ page: CatalogPageView }>>(),
  },
  /** One catalog entry as an import preview (`import.commit` installs what is chosen; `install.cancel` drops it). */
  'catalog.preview': {
    input: z.object({ name: z.string().min(3).max(200), version: z.string().min(1).max(255).optional() }).strict(),
    output: returns<Outcome<{ token: string; preview: ImportPreviewView; entry: CatalogEntryView }>>(),
  },
  /** The registry the catalog reads, and the official one it reads by default. */
  'catalog.settings': { input: empty, output: returns<{ url: string; defaultUrl: string }>() },
  /** Sets the catalog's registry (null: back to the official one). */
  'catalog.setUrl': {
    input: z.object({ url: z.string().max(2000).nullable() }).strict(),
    output: returns<Done>(),
  },
  /** Asks each installed plugin's origin (or the one named) for its current version. Changes nothing. */
  'updates.check': {
    input: z.object({ id: id.optional() }).strict(),
    output: returns<Outcome<{ updates: UpdateCheckView[] }>>(),
  },
  /** Stages and tries the other version of a plugin, with what changes in its tools. */
  'updates.preview': {
    input: z
      .object({
        id,
        version: z.string().min(1).max(255).optional(),
        /** A folder or package to update from instead of the plugin's origin (the CLI's `--from`). */
        from: z.string().min(1).max(4096).optional(),
      })
      .strict(),
    output: returns<Outcome<{ token: string; preview: UpdatePreviewView }>>(),
  },
  /** Installs a previewed update, keeping the version it replaces for a rollback. */
  'updates.commit': {
    input: z.object({ token: z.string().min(1) }).strict(),
    output: returns<Outcome<{ detail: string; id: string; version: string }>>(),
  },
  'updates.cancel': { input: z.object({ token: z.string().min(1) }).strict(), output: returns<Done>() },
  /** Puts back the version the last update replaced. */
  'plugins.rollback': { input: z.object({ id }).strict(), output: returns<Done>() },
  'palette.list': { input: empty, output: returns<PaletteEntry[]>() },
  'chat.list': { input: empty, output: returns<ConversationSummary[]>() },
  'chat.saveState': { input: empty, output: returns<SaveState>() },
  'chat.create': {
    input: z.object({ title: z.string().max(200).optional() }).strict(),
    output: returns<Conversation>(),
  },
  'chat.get': { input: z.object({ id }).strict(), output: returns<Conversation | null>() },
  'chat.rename': { input: z.object({ id, title: z.string().min(1).max(200) }).strict(), output: returns<Done>() },
  'chat.delete': { input: z.object({ id }).strict(), output: returns<Done>() },
  /** Conversations whose title or messages hold every word typed (plain words, no query syntax), best first. */
  'chat.search': {
    input: z.object({ query: z.string().max(500), limit: z.number().int().min(1).max(100).optional() }).strict(),
    output: returns<ConversationHit[]>(),
  },
  /**
   * Text as typed: `/plugin:tool key=value…` invokes, in passthrough it goes to the plugin. Where
   * nobody watches a screen (`plugboard chat`), `approve` answers for this turn the calls whose
   * policy is ask (all allowed, or all denied), and `unattended` says nobody can answer the
   * model's questions; a tool's allow or deny policy applies regardless.
   */
  'chat.send': {
    input: z
      .object({
        conversationId: id,
        text: z.string().max(100_000),
        attachments: z.array(attachmentInput).max(ATTACHMENT_LIMITS.files).optional(),
        approve: z.enum(['all', 'none']).optional(),
        unattended: z.boolean().optional(),
      })
      .strict()
      .refine((v) => v.text.trim() !== '' || (v.attachments?.length ?? 0) > 0, {
        message: 'empty: type a message or attach a file',
        path: ['text'],
      }),
    output: returns<Outcome<{ turnId: string | null }>>(),
  },
  /** An attached file's bytes (base64), to show an image in the chat. */
  'chat.attachment': {
    input: z.object({ id }).strict(),
    output: returns<Outcome<{ name: string; kind: AttachmentKind; mime: string; data: string }>>(),
  },
  /** A tool chosen in the palette, with its form's arguments. */
  'chat.invoke': {
    input: z
      .object({ conversationId: id, plugin: id, tool: z.string().min(1), args: z.record(z.string(), z.unknown()) })
      .strict(),
    output: returns<Outcome<{ turnId: string }>>(),
  },
  'chat.cancel': { input: z.object({ turnId: z.string().min(1) }).strict(), output: returns<Done>() },
  /** The conversation's model (a configured model's name), or null for the default. */
  'chat.setModel': {
    input: z.object({ conversationId: id, model: z.string().min(1).max(200).nullable() }).strict(),
    output: returns<Done>(),
  },
  /** The person's answer to an approval card; `args` replaces the call's arguments (edited on the card). */
  'chat.approve': {
    input: z
      .object({
        callId: z.string().min(1).max(200),
        decision: z.enum(['once', 'conversation', 'always', 'deny']),
        args: z.record(z.string(), z.unknown()).optional(),
      })
      .strict(),
    output: returns<Done>(),
  },
  /**
   * The person's answer to a question: words, the choices picked, or a filled form (an MCP
   * server's elicitation), or the form refused (`refuse`, with no answer).
   */
  'chat.answer': {
    input: z
      .object({
        callId: z.string().min(1).max(200),
        answer: z
          .union([
            z.string().min(1).max(20_000),
            z.array(z.string().min(1).max(200)).min(1).max(12),
            z.record(z.string(), z.unknown()),
          ])
          .optional(),
        refuse: z.enum(['decline', 'cancel']).optional(),
      })
      .strict()
      .refine((v) => (v.answer === undefined) !== (v.refuse === undefined), {
        message: 'give either an answer or refuse, not both',
      }),
    output: returns<Done>(),
  },
  /**
   * The person's message, edited and sent again; it and what followed it become an earlier
   * version. `keep` names the message's attached files that go again (all of them when absent),
   * `attachments` the files added while editing.
   */
  'chat.edit': {
    input: z
      .object({
        conversationId: id,
        messageId: id,
        text: z.string().trim().max(100_000),
        keep: z.array(id).max(ATTACHMENT_LIMITS.files).optional(),
        attachments: z.array(attachmentInput).max(ATTACHMENT_LIMITS.files).optional(),
      })
      .strict(),
    output: returns<Outcome<{ turnId: string | null }>>(),
  },
  /** The model's last answer written again; the answer so far stays, as an earlier version. */
  'chat.regenerate': {
    input: z.object({ conversationId: id }).strict(),
    output: returns<Outcome<{ turnId: string }>>(),
  },
  /** Runs the conversation's last model turn again (after a failure). */
  'chat.retry': { input: z.object({ conversationId: id }).strict(), output: returns<Outcome<{ turnId: string }>>() },
  /** The exposed tools that best match what was typed (no model needed). */
  'tools.suggest': { input: z.object({ text: z.string().max(10_000) }).strict(), output: returns<PaletteEntry[]>() },
  /**
   * The configured models, with the enabled agent plugins among them, and every installed agent
   * plugin as a row that says whether it can answer and why not (`plugboard models list`).
   */
  'models.list': { input: empty, output: returns<ModelsView & { agents: AgentModelRow[] }>() },
  /** Tokens each model's answers took, over every conversation. */
  'models.usage': { input: empty, output: returns<Array<TokenTotals & { model: string }>>() },
  'assistant.settings': { input: empty, output: returns<AssistantSettings>() },
  /** Changes some of the assistant's settings (step cap, tool budget, instructions budget). */
  'assistant.configure': { input: assistantSettingsInput, output: returns<Done>() },
  /** Adds or changes a model; `apiKey` undefined keeps the stored key, null removes it. */
  'models.save': {
    input: z
      .object({
        name: z.string().trim().min(1).max(100),
        previousName: z.string().min(1).max(100).optional(),
        provider: z.enum(PROVIDER_KINDS),
        baseURL: z.string().max(2000).nullable(),
        model: z.string().trim().min(1).max(300),
        apiKey: z.string().max(10_000).nullable().optional(),
        makeDefault: z.boolean().optional(),
      })
      .strict(),
    output: returns<Done>(),
  },
  'models.remove': { input: z.object({ name: z.string().min(1).max(100) }).strict(), output: returns<Done>() },
  'models.setDefault': { input: z.object({ name: z.string().min(1).max(100) }).strict(), output: returns<Done>() },
  /** Reaches a model's server: a saved model by name, or one being edited (its key given or stored). */
  'models.test': {
    input: z
      .object({
        name: z.string().min(1).max(100).optional(),
        provider: z.enum(PROVIDER_KINDS).optional(),
        baseURL: z.string().max(2000).nullable().optional(),
        model: z.string().max(300).optional(),
        apiKey: z.string().max(10_000).optional(),
      })
      .strict(),
    output: returns<Outcome<ModelCheck>>(),
  },
  /** Model servers running on this computer (Ollama, LM Studio, llama.cpp), probed on loopback only. */
  'models.discover': { input: empty, output: returns<DiscoveredServer[]>() },
  /** What a model calls a tool gets: allow, ask or deny; null goes back to the default. */
  'plugins.setToolPolicy': {
    input: z
      .object({
        id,
        tool: z.string().min(1).max(200),
        policy: z.enum(TOOL_POLICIES as [ToolPolicy, ...ToolPolicy[]]).nullable(),
      })
      .strict(),
    output: returns<Done>(),
  },
  'chat.exitPassthrough': { input: z.object({ conversationId: id }).strict(), output: returns<Done>() },
  /**
   * The person accepts a tool's changed definition (or, without `tool`, every changed tool of the
   * plugin): its policy and exposure apply to the definition as it is now.
   */
  'plugins.acceptDefinition': {
    input: z.object({ id, tool: z.string().min(1).max(200).optional() }).strict(),
    output: returns<Done>(),
  },
  /** The App of an MCP tool card, ready to frame: its page staged on the frame origin, or why not. */
  'apps.open': {
    input: z.object({ conversationId: id, messageId: id }).strict(),
    output: returns<Outcome<{ app: AppFrameView }>>(),
  },
  /** A tool call the card's App asks for, decided as a model's (an approval card where its policy asks). */
  'apps.call': {
    input: z
      .object({
        conversationId: id,
        messageId: id,
        tool: z.string().min(1).max(200),
        args: z.record(z.string(), z.unknown()),
      })
      .strict(),
    output: returns<Outcome<{ result: AppToolResult }>>(),
  },
  /** Opens a web link in the system's browser, once the person agreed (the desktop app only). */
  'app.openLink': { input: z.object({ url: z.string().min(1).max(8192) }).strict(), output: returns<Done>() },
} as const;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
export type CommandInput<C extends CommandName> = z.input<Commands[C]['input']>;
export type CommandOutput<C extends CommandName> = Commands[C]['output'];

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(commands, name);
}

/** Checks a command's input: an `invalid_input` failure whose message names the field at fault. */
export function parseInput<C extends CommandName>(name: C, input: unknown): Result<CommandInput<C>> {
  const r = commands[name].input.safeParse(input ?? {});
  if (r.success) return { ok: true, value: r.data as CommandInput<C> };
  const issue = r.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'input';
  return failure('invalid_input', `${name}: ${where}: ${issue?.message ?? 'invalid'}`);
}

/**
 * A command as it comes from outside the process (a window over IPC or WebSocket): its name must
 * be the contract's and its input must pass the command's schema. The same refusal, code and
 * words, whichever transport carried it.
 */
export function checkInvocation(
  name: unknown,
  input: unknown,
): { ok: true; name: CommandName; input: CommandInput<CommandName> } | Failure {
  if (!isCommandName(name)) return failure('invalid_input', `unknown command "${String(name)}"`);
  const parsed = parseInput(name, input);
  return parsed.ok ? { ok: true, name, input: parsed.value } : parsed;
}

/**
 * What a transport answers to one invocation: the command's output, or the failure that kept it
 * from running or finishing (a refused name or input, an unexpected error). IPC and WebSocket
 * send this same shape, and the window reads it the same way (`unwrapAnswer`).
 */
export type Answer = { ok: true; value: unknown } | Failure;

/** The command's output; a refusal or an error is thrown as a FailureError, code and words intact. */
export function unwrapAnswer(a: Answer): unknown {
  if (a.ok) return a.value;
  throw new FailureError(a);
}

// ---- events ------------------------------------------------------------------------------------

export interface Events {
  health: HealthEvent;
  log: LogEvent;
  /**
   * Something about a plugin changed: refetch its view. `tools` lists what its tool list gained
   * and lost, and the tools whose definition changed.
   */
  'plugins.changed': { id: string; reason: string; tools?: { added: string[]; removed: string[]; changed?: string[] } };
  'chat.turn': TurnEvent;
  'chat.passthrough': { conversationId: string; pluginId: string; pluginName: string; active: boolean; reason: string };
  'chat.updated': ConversationSummary;
  /** Whether every change to the conversations is on disk; when not (a full disk), why and how many wait. */
  'chat.saveState': SaveState;
  /** A model was added, changed or removed, or the default changed. */
  'models.changed': { reason: string };
  /** A line of an install's package step (npm, pip…), for the install or import named by `progress`. */
  'install.progress': { progress: string; line: string };
  /** The calls other apps wait to have approved changed (one came, was answered, or withdrawn). */
  'approvals.external': { pending: ExternalApprovalView[] };
}

export type EventName = keyof Events;
export const EVENT_NAMES: EventName[] = [
  'health',
  'log',
  'plugins.changed',
  'chat.turn',
  'chat.passthrough',
  'chat.updated',
  'chat.saveState',
  'models.changed',
  'install.progress',
  'approvals.external',
];

/** What `window.plugboard` is, over IPC or WebSocket alike (the renderer's view of either). */
export interface PlugboardApi {
  invoke<C extends CommandName>(name: C, input: CommandInput<C>): Promise<CommandOutput<C>>;
  on<E extends EventName>(name: E, listener: (payload: Events[E]) => void): () => void;
}

/**
 * What the preload exposes as `window.plugboard`: the IPC transport. Its `invoke` resolves with the
 * Answer, which the renderer unwraps as the WebSocket client does (an error thrown across the
 * context bridge would lose its code).
 */
export interface PlugboardBridge {
  invoke(name: CommandName, input: unknown): Promise<Answer>;
  on: PlugboardApi['on'];
  /** The path of a dropped File (webUtils.getPathForFile). */
  pathForFile(file: unknown): string;
}

/** The IPC channel names (main binds them, the preload calls them). */
export const IPC_INVOKE = 'plugboard:invoke';
export const IPC_EVENT = 'plugboard:event';

/** Wire messages of the WebSocket transport. A result carries the invocation's Answer. */
export type WsClientMessage = { kind: 'invoke'; id: number; name: string; input: unknown };
export type WsServerMessage =
  ({ kind: 'result'; id: number } & Answer) | { kind: 'event'; name: EventName; payload: unknown };
