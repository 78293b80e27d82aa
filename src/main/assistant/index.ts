/**
 * The assistant's door: the chat service (conversations, the tool loop, approvals, agent plugins
 * and plans), the conversation store, the model configurations, and the few helpers the service
 * and the CLI show to people (what the exposed tools cost, which models are agent plugins), and
 * the channel by which another app's calls are approved in the app (external-approvals/).
 */
export { agentModelRows, agentModels } from './agent/agents';
export { takeAttachments, type TakeUpload } from './attachments';
export { ChatService, type ChatDeps, type ChatEvent } from './chat';
export { addUsage, declarationTokens } from './loop/tokens';
export { checkModel, discoverLocal } from './models/discovery';
export { checkConfig, ModelStore } from './models/model-store';
export { ConversationStore, StoreOpenError, type SaveState, type SearchHit, type StoredFile } from './store';
export {
  autoApprovedTools,
  exposedDeclarations,
  exposedUserCommands,
  pairKey,
  qualifiedNames,
  usable,
  type ToolDeclaration,
} from './tools';
export { reachApp, type AppLink } from './external-approvals/ask';
export { ApprovalInbox } from './external-approvals/inbox';

// The request exactly as the assistant builds it, for the benchmark's "AI SDK alone" baseline,
// which must send what Plugboard sends to be a fair comparison (bench/assistant.ts).
export { STEP_SETTINGS } from './loop/model-step';
export { offeredTools } from './loop/offered';
export { buildRequest } from './loop/request';
export { ToolChooser } from './loop/selection';
export { languageModel } from './models/providers';
export { systemPrompt } from './system-prompt';
// What binding approvals to definitions and holding carried text cost a call (bench/assistant.ts).
export { carriedInto } from './loop/carried';
