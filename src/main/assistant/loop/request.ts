/**
 * One step's request to the model, built from the conversation as stored: the tools it offers
 * (all the exposed ones within the budget, else the chosen ones and `find_tools`: selection.ts),
 * `ask_user` always, the system prompt with the instructions of the plugins offered
 * (instructions.ts), the history (history.ts), and the details a person can open on the turn: what
 * was offered, whose instructions went in, and about how many tokens it all takes.
 */
import type { ModelMessage, ToolSet } from 'ai';
import type { AssistantSettings, RequestInfo } from '../../../shared/assistant';
import type { ChatMessage } from '../../../shared/contract';
import type { PluginRegistry } from '../../plugins';
import { builtinDeclarations, builtinTools } from './builtins';
import type { StoredFile } from '../store';
import { modelMessages } from './history';
import { instructionsFor } from './instructions';
import { offeredTools, sdkTools, type Offered } from './offered';
import type { ToolChooser } from './selection';
import { declarationTokens, estimateTokens } from './tokens';

export interface RequestInput {
  registry: PluginRegistry;
  chooser: ToolChooser;
  settings: AssistantSettings;
  /** The assistant's own part of the system prompt. */
  baseSystem: string;
  stored: readonly ChatMessage[];
  /** Tools the model found with find_tools in this turn. */
  found: ReadonlySet<string>;
  pluginName(id: string): string;
  /** An attached file's bytes; without it, attachments are named only. */
  file?(id: string): StoredFile | null;
  /** The model takes images (else each is named in words: history.ts). */
  images?: boolean;
}

export interface StepRequest {
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  /** The plugins' tools offered (built-ins apart). */
  offered: Offered[];
  /** Every exposed tool (find_tools searches them). */
  all: readonly Offered[];
  info: RequestInfo;
}

export function buildRequest(input: RequestInput): StepRequest {
  const all = offeredTools(input.registry);
  const selection = input.chooser.choose({
    all,
    query: lastUserText(input.stored),
    recent: recentTools(input.stored, all),
    found: input.found,
    budget: input.settings,
  });
  const instructions = instructionsFor(input.registry, selection.offered, input.settings.instructionsTokens);
  const system = input.baseSystem + instructions.text;
  const messages = modelMessages(input.stored, { file: input.file ?? (() => null), images: input.images ?? false });
  const builtins = builtinDeclarations(selection.chose);
  const toolTokens = [...selection.offered, ...builtins].reduce((n, t) => n + declarationTokens(t), 0);
  return {
    system,
    messages,
    tools: { ...sdkTools(selection.offered, input.pluginName), ...builtinTools(selection.chose) },
    offered: selection.offered,
    all,
    info: {
      tools: [...selection.offered.map((t) => t.qualifiedName), ...builtins.map((b) => b.qualifiedName)],
      toolsTotal: selection.total,
      instructionsFrom: instructions.from,
      instructionsLeftOut: instructions.leftOut,
      // An image's bytes are not text the model reads: counted as a short placeholder here.
      estimatedTokens:
        estimateTokens(
          system.length +
            JSON.stringify(messages, (_k, v: unknown) => (v instanceof Uint8Array ? '[image]' : v)).length,
        ) + toolTokens,
    },
  };
}

/** What the person wrote last and just before: what the tools are searched by. */
function lastUserText(stored: readonly ChatMessage[]): string {
  const said: string[] = [];
  for (let i = stored.length - 1; i >= 0 && said.length < 2; i--) {
    const m = stored[i] as ChatMessage;
    if (m.role === 'user' && !m.passthrough) said.push(m.text);
  }
  return said.join('\n');
}

/** Tools the conversation used, the model's calls and the person's own, most recent first. */
function recentTools(stored: readonly ChatMessage[], all: readonly Offered[]): string[] {
  const byPair = new Map(all.map((t) => [`${t.plugin}\u0000${t.tool}`, t.qualifiedName]));
  const out: string[] = [];
  for (let i = stored.length - 1; i >= 0 && out.length < 16; i--) {
    const m = stored[i] as ChatMessage;
    if (m.role !== 'plugin' || !m.pluginId || !m.tool) continue;
    const name = byPair.get(`${m.pluginId}\u0000${m.tool}`);
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}
