/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension) and server icons (SEP-973), as the main
 * process and the UI share them: what a tool says about its App, what a tool card keeps of one
 * (the resource and the call's result, so the App is rendered again after a reload), what the
 * screen is handed to show it (a frame URL on an origin of its own, never the page's), and the
 * icons the screen shows, always as `data:` URIs. Pure types, constants and small functions.
 */

/** The extension's name, as the client advertises it at initialize. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The one kind of App resource the extension defines (an HTML page). */
export const APP_MIME = 'text/html;profile=mcp-app';

/** Who may call a tool: the model, the tool's own App, or both (the default). */
export type ToolVisibility = 'model' | 'app';

/** What an MCP tool's `_meta.ui` says: the App that shows its results, and who may call it. */
export interface ToolUi {
  /** A `ui://` resource of the same server. */
  resourceUri?: string;
  /** Absent: both. */
  visibility?: ToolVisibility[];
}

/** Whether a tool with this `ui` may be offered to a model (its visibility names `model`, or says nothing). */
export function visibleToModel(ui: ToolUi | undefined): boolean {
  return !ui?.visibility || ui.visibility.includes('model');
}

/** Whether a tool's own App may call it. */
export function visibleToApp(ui: ToolUi | undefined): boolean {
  return !ui?.visibility || ui.visibility.includes('app');
}

/**
 * An MCP `tools/call` result as it was received (content blocks, structured content, `_meta`,
 * `isError`): the App gets it as it is, in `ui/notifications/tool-result`.
 */
export type AppToolResult = Record<string, unknown>;

/** What a tool card keeps of its App: which resource shows it, and the result once there is one. */
export interface AppCard {
  resourceUri: string;
  result?: AppToolResult;
}

/** The origins an App's page may reach, as its resource declares them (`_meta.ui.csp`). */
export interface AppCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** Browser features an App's page asks for (`_meta.ui.permissions`). */
export interface AppPermissions {
  camera?: object;
  microphone?: object;
  geolocation?: object;
  clipboardWrite?: object;
}

/** An App, ready to be framed: where its page is served, and how the frame is set up. */
export interface AppFrameView {
  /** The page, on the frame origin (a second loopback port, or `plugboard-app:` in the desktop app). */
  url: string;
  /** What the page asked for; the frame's `allow` attribute is made from them. */
  permissions: AppPermissions;
  /** The resource's wish for a border; null: it said nothing. */
  prefersBorder: boolean | null;
  /** The origins the page may reach, after Plugboard's own were taken out. */
  csp: AppCsp;
  /** The tool whose card shows it (the App's `hostContext.toolInfo`). */
  tool: { name: string; title?: string; description: string; inputSchema: Record<string, unknown> };
  /** The plugin's name, for the frame's label. */
  pluginName: string;
  /** Origins its resource declared that were refused, each with why. */
  refused: Array<{ source: string; why: string }>;
}

/** An icon as a server gives it (SEP-973): a URL or a `data:` URI. */
export interface IconSpec {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** An icon the screen may show: `data:` URIs only, one for a light and one for a dark background. */
export interface IconView {
  light: string;
  dark: string;
}

/** The picture types an icon may be, by the MIME type its `data:` URI or its server names. */
export const ICON_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'] as const;
/** The largest icon kept, decoded. */
export const MAX_ICON_BYTES = 64 * 1024;
