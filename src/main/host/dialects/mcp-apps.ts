/**
 * MCP Apps and icons on the client's side of the wire: what a tool's `_meta.ui` says (its App's
 * `ui://` resource, who may call it), the icons a server, a tool or a prompt gives (SEP-973), and
 * reading an App's page (`resources/read` of a `text/html;profile=mcp-app` resource) with what
 * its `_meta.ui` declares (CSP origins, permissions, border). The shapes are checked with the
 * extension's own schemas (`@modelcontextprotocol/ext-apps`); what fails them is ignored, with a
 * reason, rather than trusted. Nothing here decides what a person sees: that is above the host.
 */
import type { Client } from '@modelcontextprotocol/client';
import {
  getToolUiResourceUri,
  McpUiResourceMetaSchema,
  McpUiToolMetaSchema,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { APP_MIME, type AppCsp, type AppPermissions, type IconSpec, type ToolUi } from '../../../shared/apps';
import { failure, ok, type Result } from '../../../shared/failures';
import { asRecord, describeValue } from './values';

/** The largest App page read: a bundled React App is about 0.5 MB. */
export const MAX_APP_PAGE_BYTES = 8 * 1024 * 1024;
/** Icons kept per server, tool or prompt (the rest are ignored). */
const MAX_ICONS = 8;
/** A `src` longer than this (a huge `data:` URI) is ignored. */
const MAX_ICON_SRC = 128 * 1024;

/** An App's page, as its server gave it. */
export interface UiResource {
  uri: string;
  html: string;
  csp: AppCsp;
  permissions: AppPermissions;
  prefersBorder: boolean | null;
}

/**
 * A tool's App and visibility from its `_meta` (the nested `ui` form, or the older flat
 * `ui/resourceUri`); undefined when it has neither, or says something the extension does not allow.
 */
export function toolUiOf(tool: { name: string; _meta?: unknown }, warn: (m: string) => void): ToolUi | undefined {
  const meta = asRecord(tool._meta);
  if (!meta) return undefined;
  let resourceUri: string | undefined;
  try {
    resourceUri = getToolUiResourceUri({ _meta: meta });
  } catch (e) {
    warn(`tool ${tool.name}: its App is ignored: ${(e as Error).message}`);
  }
  const parsed = meta.ui === undefined ? undefined : McpUiToolMetaSchema.safeParse(meta.ui);
  if (parsed && !parsed.success) warn(`tool ${tool.name}: _meta.ui is not what the Apps extension allows; ignored`);
  const visibility = parsed?.success ? parsed.data.visibility : undefined;
  if (!resourceUri && !visibility) return undefined;
  return { ...(resourceUri ? { resourceUri } : {}), ...(visibility ? { visibility: [...new Set(visibility)] } : {}) };
}

/** The icons given (SEP-973): well-formed entries only, a few at most. */
export function iconsOf(value: unknown): IconSpec[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: IconSpec[] = [];
  for (const v of value) {
    const r = asRecord(v);
    if (typeof r?.src !== 'string' || r.src.length === 0 || r.src.length > MAX_ICON_SRC) continue;
    const icon: IconSpec = { src: r.src };
    if (typeof r.mimeType === 'string') icon.mimeType = r.mimeType;
    if (Array.isArray(r.sizes)) icon.sizes = r.sizes.filter((s): s is string => typeof s === 'string').slice(0, 8);
    if (r.theme === 'light' || r.theme === 'dark') icon.theme = r.theme;
    out.push(icon);
    if (out.length === MAX_ICONS) break;
  }
  return out.length > 0 ? out : undefined;
}

/** Reads an App's page: one HTML content of the App type, its `_meta.ui` checked. */
export async function readUiResource(client: Client, uri: string, timeoutMs: number): Promise<Result<UiResource>> {
  if (!uri.startsWith('ui://')) return failure('invalid_input', `${uri} is not an App resource (ui://…)`);
  let contents: unknown[];
  try {
    contents = (await client.readResource({ uri }, { timeout: timeoutMs })).contents;
  } catch (e) {
    return failure('plugin_error', `resources/read ${uri} failed: ${(e as Error).message}`);
  }
  const c = contents.map((x) => asRecord(x) ?? {}).find((x) => x.uri === uri) ?? asRecord(contents[0]);
  if (!c) return failure('malformed_response', `resources/read ${uri} returned no contents`);
  if (typeof c.mimeType !== 'string' || c.mimeType.replace(/\s+/g, '').toLowerCase() !== APP_MIME)
    return failure(
      'malformed_response',
      `${uri} is ${typeof c.mimeType === 'string' ? c.mimeType : 'of no type'}, not ${APP_MIME}: it is not shown`,
    );
  let html: string;
  if (typeof c.text === 'string') html = c.text;
  else if (typeof c.blob === 'string') html = Buffer.from(c.blob, 'base64').toString('utf8');
  else return failure('malformed_response', `${uri} has neither text nor blob`);
  if (Buffer.byteLength(html) > MAX_APP_PAGE_BYTES)
    return failure(
      'malformed_response',
      `${uri} is larger than ${MAX_APP_PAGE_BYTES / 1024 / 1024} MiB: it is not shown`,
    );
  const ui = asRecord(asRecord(c._meta)?.ui);
  const meta = ui ? McpUiResourceMetaSchema.safeParse(ui) : undefined;
  if (meta && !meta.success)
    return failure(
      'malformed_response',
      `${uri}: _meta.ui is not what the Apps extension allows (${describeValue(ui)}): it is not shown`,
    );
  const m = meta?.data;
  return ok({
    uri,
    html,
    csp: { ...(m?.csp ?? {}) },
    permissions: { ...(m?.permissions ?? {}) },
    prefersBorder: typeof m?.prefersBorder === 'boolean' ? m.prefersBorder : null,
  });
}

/** The text a host without a frame shows of an App tool's result (`content`'s text blocks). */
export function textOfContent(result: Record<string, unknown>): string | undefined {
  const content = Array.isArray(result.content) ? result.content : [];
  const texts = content
    .map((c) => asRecord(c))
    .filter((c) => c?.type === 'text' && typeof c.text === 'string')
    .map((c) => c?.text as string);
  return texts.length > 0 ? texts.join('\n') : undefined;
}
