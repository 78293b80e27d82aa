/**
 * The contract's doors to MCP Apps. `apps.open` reads the App page of a tool card (its plugin's
 * `ui://` resource, from the running server), builds the page's Content-Security-Policy from what
 * the resource declares (shared/app-csp.ts), stages it on the frame origin (app-frames.ts) and
 * answers with its URL and what the frame needs; `apps.call` hands a tool call the App asks for to
 * the assistant (assistant/app-calls.ts), which decides it as a model's; `app.openLink` opens a link
 * the person agreed to, in the desktop app. Only MCP plugins have
 * Apps; a card whose plugin is disabled or gone shows no App.
 */
import { appPageCsp, keepSources } from '../../shared/app-csp';
import type { AppFrameView, AppToolResult } from '../../shared/apps';
import type { CommandOutput } from '../../shared/contract';
import { failure, type Outcome } from '../../shared/failures';
import type { ChatService } from '../assistant';
import type { AuditLog, PluginRegistry } from '../plugins';
import type { AppFrames } from './app-frames';

export class AppDoors {
  constructor(
    private readonly registry: PluginRegistry,
    /** The chat, opened when first needed (service/backend.ts). */
    private readonly chat: () => Promise<ChatService>,
    private readonly frames: AppFrames,
    private readonly audit: AuditLog,
  ) {}

  async open(conversationId: string, messageId: string): Promise<CommandOutput<'apps.open'>> {
    const { registry, frames } = this;
    if (!frames.served)
      return failure('invalid_state', 'this Plugboard shows no App frames (no frame origin): the card shows the text');
    const found = (await this.chat()).message(conversationId, messageId);
    if (!found.ok) return found;
    const m = found.message;
    const plugin = m.pluginId;
    if (m.role !== 'plugin' || !m.app || !plugin || m.call?.fromApp)
      return failure('not_found', 'that message shows no App');
    const spec = registry.record(plugin)?.spec;
    if (spec?.dialect !== 'mcp') return failure('not_found', `${plugin} is not an MCP server: it has no Apps`);
    if (!registry.isEnabled(plugin)) return failure('disabled', `${plugin} is disabled; enable it to see its App`);
    const features = registry.host.features(plugin);
    if (!features) return failure('not_found', `${plugin} is not running in this host`);
    const page = await features.readUi(m.app.resourceUri);
    if (!page.ok) return page;
    const { kept, dropped } = keepSources(page.value.csp, frames.ownOrigins);
    const csp = appPageCsp(kept);
    const url = frames.stage(page.value.html, csp);
    const declared = Object.entries(kept)
      .filter(([, v]) => v.length > 0)
      .map(([k, v]) => `${k}: ${v.join(' ')}`);
    this.audit.append({
      action: 'app-open',
      plugin,
      ok: true,
      tool: m.tool ?? '?',
      detail: `${m.app.resourceUri}; ${declared.length ? `its policy allows ${declared.join('; ')}` : 'no origins allowed'}${dropped.length ? `; refused: ${dropped.map((d) => `${d.source} (${d.why})`).join('; ')}` : ''}`,
    });
    const tool = registry.tools(plugin).find((t) => t.name === m.tool);
    const view: AppFrameView = {
      url,
      permissions: page.value.permissions,
      prefersBorder: page.value.prefersBorder,
      csp: kept,
      tool: {
        name: m.tool ?? '',
        ...(tool?.annotations?.title ? { title: tool.annotations.title } : {}),
        description: tool?.description ?? '',
        inputSchema: tool?.parameters ?? { type: 'object' },
      },
      pluginName: spec.name,
      refused: dropped,
    };
    return { ok: true, app: view };
  }

  async call(
    conversationId: string,
    messageId: string,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<Outcome<{ result: AppToolResult }>> {
    return (await this.chat()).appCall(conversationId, messageId, tool, args);
  }

  /** A web link the person agreed to open, opened by the system's browser (the desktop app's `open`). */
  async openLink(
    url: string,
    open: ((url: string) => Promise<string>) | undefined,
  ): Promise<CommandOutput<'app.openLink'>> {
    if (!open)
      return failure('invalid_state', 'only the desktop app opens links itself; the web UI opens them in a new tab');
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return failure('invalid_input', `not a link: ${url}`);
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:')
      return failure('invalid_input', `only web links (http, https) are opened, not ${u.protocol}`);
    const why = await open(u.href);
    return why ? failure('io_error', `could not open ${u.href}: ${why}`) : { ok: true, detail: 'opened' };
  }
}
