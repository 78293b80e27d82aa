/**
 * An MCP plugin's resources and prompts, asked of its running server (started if need be), each
 * request under the plugin's handshake deadline. A plugin whose protocol has neither answers with
 * empty lists, and a prompt it does not have is `not_found`.
 */
import { failure, ok, type Result } from '../../shared/failures';
import type { PromptFilled, PromptView, ResourceContent, ResourceView } from '../../shared/mcp-features';
import type { UiResource } from './dialects/mcp-apps';
import type { PluginSupervisor } from './supervisor/supervisor';

export interface ServerFeatures {
  resources(): Promise<Result<ResourceView[]>>;
  prompts(): Promise<Result<PromptView[]>>;
  getPrompt(name: string, args: Record<string, string>): Promise<Result<PromptFilled>>;
  /** An MCP App's page, by its `ui://` URI: read from the running server (started if need be). */
  readUi(uri: string): Promise<Result<UiResource>>;
  readResource(uri: string): Promise<Result<ResourceContent[]>>;
}

export function featuresOf(sup: PluginSupervisor): ServerFeatures {
  const ms = sup.spec.timeouts.handshakeMs;
  const mcp = sup.spec.dialect === 'mcp';
  return {
    resources: async () => {
      if (!mcp) return ok([]);
      const s = await sup.session();
      return !s.ok ? s : (s.value.resources?.(ms) ?? ok([]));
    },
    prompts: async () => {
      if (!mcp) return ok([]);
      const s = await sup.session();
      return !s.ok ? s : (s.value.prompts?.(ms) ?? ok([]));
    },
    getPrompt: async (name, args) => {
      if (!mcp) return failure('not_found', `${sup.spec.id} has no prompts`);
      const s = await sup.session();
      if (!s.ok) return s;
      return s.value.getPrompt?.(name, args, ms) ?? failure('not_found', `${sup.spec.id} has no prompts`);
    },
    readUi: async (uri) => {
      // Apps are MCP's alone: no other protocol's plugin ever has one.
      if (!mcp) return failure('not_found', `${sup.spec.id} is not an MCP server: it has no Apps`);
      const s = await sup.session();
      if (!s.ok) return s;
      return s.value.readUi?.(uri, ms) ?? failure('not_found', `${sup.spec.id} has no Apps`);
    },
    readResource: async (uri) => {
      if (!mcp) return failure('not_found', `${sup.spec.id} has no resources`);
      const s = await sup.session();
      if (!s.ok) return s;
      return s.value.readResource?.(uri, ms) ?? failure('not_found', `${sup.spec.id} has no resources`);
    },
  };
}
