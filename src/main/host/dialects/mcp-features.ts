/**
 * Resources and prompts of an MCP server, read on demand (the screen asks when it shows them, so
 * a list_changed needs no cache of ours to go stale): `resources/list` and `prompts/list` with
 * their pages, and `prompts/get`, whose messages are turned into text for the composer.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { PromptFilled, PromptView, ResourceContent, ResourceView } from '../../../shared/mcp-features';
import { failure, ok, type Result } from '../../../shared/failures';
import { iconsOf } from './mcp-apps';
import { asRecord, describeValue } from './values';

/** Pages are followed up to this many: a server that never stops paging is cut off, not followed. */
const MAX_PAGES = 50;

export async function listResources(client: Client, timeoutMs: number): Promise<Result<ResourceView[]>> {
  if (!client.getServerCapabilities()?.resources) return ok([]);
  const out: ResourceView[] = [];
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await client.listResources(cursor ? { cursor } : {}, { timeout: timeoutMs });
      for (const x of r.resources) {
        const v: ResourceView = { uri: x.uri, name: x.name };
        if (x.title) v.title = x.title;
        if (x.description) v.description = x.description;
        if (x.mimeType) v.mimeType = x.mimeType;
        out.push(v);
      }
      cursor = r.nextCursor;
      if (!cursor) break;
    }
  } catch (e) {
    return failure('plugin_error', `resources/list failed: ${(e as Error).message}`);
  }
  return ok(out);
}

/** `resources/read`: the parts of one resource, text or base64 bytes (other fields dropped). */
export async function readResource(client: Client, uri: string, timeoutMs: number): Promise<Result<ResourceContent[]>> {
  if (!client.getServerCapabilities()?.resources) return failure('not_found', 'this server offers no resources');
  try {
    const r = await client.readResource({ uri }, { timeout: timeoutMs });
    return ok(
      r.contents.map((c) => {
        const part: ResourceContent = { uri: c.uri };
        if (c.mimeType) part.mimeType = c.mimeType;
        if ('text' in c && typeof c.text === 'string') part.text = c.text;
        if ('blob' in c && typeof c.blob === 'string') part.blob = c.blob;
        return part;
      }),
    );
  } catch (e) {
    return failure('plugin_error', `resources/read ${uri} failed: ${(e as Error).message}`);
  }
}

export async function listPrompts(client: Client, timeoutMs: number): Promise<Result<PromptView[]>> {
  if (!client.getServerCapabilities()?.prompts) return ok([]);
  const out: PromptView[] = [];
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await client.listPrompts(cursor ? { cursor } : {}, { timeout: timeoutMs });
      for (const p of r.prompts) {
        const v: PromptView = {
          name: p.name,
          arguments: (p.arguments ?? []).map((a) => ({
            name: a.name,
            required: a.required === true,
            ...(a.description ? { description: a.description } : {}),
          })),
        };
        if (p.title) v.title = p.title;
        if (p.description) v.description = p.description;
        const icons = iconsOf(p.icons);
        if (icons) v.icons = icons;
        out.push(v);
      }
      cursor = r.nextCursor;
      if (!cursor) break;
    }
  } catch (e) {
    return failure('plugin_error', `prompts/list failed: ${(e as Error).message}`);
  }
  return ok(out);
}

export async function getPrompt(
  client: Client,
  name: string,
  args: Record<string, string>,
  timeoutMs: number,
): Promise<Result<PromptFilled>> {
  if (!client.getServerCapabilities()?.prompts) return failure('not_found', 'this server offers no prompts');
  try {
    const r = await client.getPrompt({ name, arguments: args }, { timeout: timeoutMs });
    const messages = r.messages.map((m) => ({ role: m.role, text: contentText(m.content) }));
    const text = messages
      .filter((m) => m.role === 'user')
      .map((m) => m.text)
      .join('\n\n');
    return ok({ ...(r.description ? { description: r.description } : {}), messages, text });
  } catch (e) {
    return failure('plugin_error', `prompts/get ${name} failed: ${(e as Error).message}`);
  }
}

/** A prompt message's content as text: embedded resources by their text, anything else named. */
function contentText(content: unknown): string {
  const c = asRecord(content) ?? {};
  if (c.type === 'text' && typeof c.text === 'string') return c.text;
  const resource = asRecord(c.resource);
  if (c.type === 'resource' && typeof resource?.text === 'string') return resource.text;
  if (c.type === 'resource_link' && typeof c.uri === 'string') return `<${c.uri}>`;
  return `[${typeof c.type === 'string' ? c.type : describeValue(content)}]`;
}
