/**
 * What a model's call to a tool is made within (loop/tool-calls.ts, loop/call-approval.ts): the
 * registry, the conversation's live messages and approvals, its audit log, and the turn's state.
 */
import type { ChatMessage } from '../../../shared/contract';
import type { ContextMessage } from '../../../shared/plugin';
import type { AuditLog, CallHandle, PluginRegistry } from '../../plugins';
import type { LiveMessages } from '../live-messages';
import type { Approvals } from './approvals';

export interface CallContext {
  registry: PluginRegistry;
  messages: LiveMessages;
  approvals: Approvals;
  audit: AuditLog;
  conversationId: string;
  turnId: string;
  /** `plugboard chat --approve all|none`: answers every prompt. */
  flag?: 'all' | 'none';
  context(): ContextMessage[];
  /** The conversation's messages as stored (what a call's arguments may carry of other results). */
  stored(): readonly ChatMessage[];
  /**
   * Tools the person allowed for this conversation (`plugin:tool#hash`, hash of the definition
   * allowed), and adding one.
   */
  allowedHere(): readonly string[];
  allowHere(key: string): void;
  stopped(): boolean;
  /** Registers a running call so Stop reaches it. */
  track(handle: CallHandle): () => void;
}
