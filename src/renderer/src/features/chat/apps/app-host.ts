/**
 * The host's side of one MCP App frame, over the extension's official `AppBridge` and
 * `PostMessageTransport` (`@modelcontextprotocol/ext-apps/app-bridge`): the bridge speaks the
 * protocol (the `ui/initialize` handshake and its reply, notifications, request ids, checks of
 * what the App sends); this file only says what Plugboard answers. The transport listens to the
 * frame's window only (`event.source`), and is connected before the frame gets its page, so the
 * App's first message is never missed. Nothing goes to the App before it says it is initialized:
 * the tool's input, then its result (or that it was cancelled), queued until then.
 *
 * What the App may ask: a tool of its own server (`apps.call`, decided in the main process as a
 * model's call is), a link opened or a message sent to the conversation (each only once the
 * person agrees, `hooks`), its frame's height, and log lines. Nothing else is offered: no
 * resources, no sampling, no downloads, no display modes but inline.
 */
import {
  AppBridge,
  PostMessageTransport,
  type McpUiHostContext,
  type McpUiHostCapabilities,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AppFrameView, AppToolResult } from '../../../../../shared/apps';

export interface AppHostHooks {
  /** A tool of the App's own server; the failure's message goes back to the App as its error. */
  callTool(name: string, args: Record<string, unknown>): Promise<AppToolResult>;
  /** Resolves true once the person agreed and it was done; false when they refused. */
  openLink(url: string): Promise<boolean>;
  message(text: string): Promise<boolean>;
  /** The height the App asks for (its content's), in CSS pixels. */
  size(height: number): void;
  initialized(): void;
  log(level: string, data: unknown): void;
}

const HOST_INFO = { name: 'Plugboard', version: '0.1.0' };

export class AppHost {
  private readonly bridge: AppBridge;
  private initialized = false;
  /** What waits for the App's `initialized` notification, in order. */
  private readonly queue: Array<() => Promise<void>> = [];
  private inputSent = false;
  private ended = false;
  private disposed = false;
  /** The whole context as last told (setHostContext replaces it, so changes are merged here). */
  private ctx: McpUiHostContext;
  private contextChanged = false;

  constructor(
    private readonly frame: HTMLIFrameElement,
    private readonly view: AppFrameView,
    context: McpUiHostContext,
    hooks: AppHostHooks,
  ) {
    this.ctx = context;
    const caps: McpUiHostCapabilities = {
      openLinks: {},
      serverTools: {},
      logging: {},
      message: { text: {} },
      sandbox: { permissions: view.permissions, csp: view.csp },
    };
    this.bridge = new AppBridge(null, HOST_INFO, caps, { hostContext: context });
    const b = this.bridge;
    b.addEventListener('initialized', () => {
      this.initialized = true;
      if (this.contextChanged) this.bridge.setHostContext(this.ctx);
      hooks.initialized();
      void this.drain();
    });
    b.addEventListener('sizechange', ({ height }) => {
      if (typeof height === 'number' && Number.isFinite(height)) hooks.size(height);
    });
    b.addEventListener('loggingmessage', ({ level, data }) => hooks.log(level, data));
    b.oncalltool = async (params) =>
      (await hooks.callTool(params.name, params.arguments ?? {})) as unknown as CallToolResult;
    b.onopenlink = async ({ url }) => ((await hooks.openLink(url)) ? {} : { isError: true });
    b.onmessage = async ({ content }) => {
      const texts = content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
      if (texts.length === 0 || texts.length !== content.length) return { isError: true };
      return (await hooks.message(texts.join('\n\n'))) ? {} : { isError: true };
    };
    b.onrequestdisplaymode = async () => ({ mode: 'inline' });
  }

  /** Listens to the frame, then gives it its page. */
  async start(): Promise<void> {
    const win = this.frame.contentWindow;
    if (!win) throw new Error('the App frame has no window');
    await this.bridge.connect(new PostMessageTransport(win, win));
    if (!this.disposed) this.frame.src = this.view.url;
  }

  /** The tool's arguments (sent once). */
  input(args: Record<string, unknown>): void {
    if (this.inputSent) return;
    this.inputSent = true;
    this.later(() => this.bridge.sendToolInput({ arguments: args }));
  }

  /** The call's result, as the server gave it (after the input). */
  result(result: AppToolResult): void {
    if (this.ended) return;
    this.ended = true;
    this.later(() => this.bridge.sendToolResult(result as CallToolResult));
  }

  /** The call ended without a result (stopped, or failed before the tool ran). */
  cancelled(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.later(() => this.bridge.sendToolCancelled({ reason }));
  }

  /** Changes the App is told about (the theme): at once, or right after it is initialized. */
  context(change: McpUiHostContext): void {
    this.ctx = { ...this.ctx, ...change };
    if (this.initialized) this.bridge.setHostContext(this.ctx);
    else this.contextChanged = true;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // The App is told it goes (it may save what it holds); the frame goes with the card anyway.
    if (this.initialized) void this.bridge.teardownResource({}).catch(() => undefined);
    void this.bridge.close().catch(() => undefined);
  }

  private later(send: () => Promise<void>): void {
    this.queue.push(send);
    if (this.initialized) void this.drain();
  }

  private draining = false;
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    while (this.queue.length > 0 && !this.disposed)
      await (this.queue.shift() as () => Promise<void>)().catch(() => undefined);
    this.draining = false;
  }
}
