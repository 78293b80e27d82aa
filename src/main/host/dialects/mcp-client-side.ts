/**
 * The requests an MCP server sends to Plugboard, and the notifications about its lists, through
 * the SDK's `Client` handlers: `roots/list` (the folders the person granted, as file:// URIs),
 * `elicitation/create` (form mode: a question to the person), `sampling/createMessage` (a reply
 * from the conversation's model, once the person allowed it), and list_changed for prompts and
 * resources (read on demand, so the screen is only told to read them again).
 *
 * Who answers is the host's owner (ClientSide): this file turns the wire's shapes into ours and
 * back, and refuses what Plugboard does not serve (URL-mode elicitation, non-text sampling).
 */
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { APP_MIME, UI_EXTENSION } from '../../../shared/apps';
import { NOBODY_TO_ASK, type ClientSide, type SampleMessage } from '../asks';
import { asRecord } from './values';

/** What Plugboard declares it serves (the `initialize` capabilities of its client). */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  roots: { listChanged: true },
  // Form mode only: a URL-mode request (open a web page) is refused by the SDK for us.
  elicitation: { form: {} },
  sampling: {},
  // MCP Apps: tools may name an App page, which the screen shows in their cards (mcp-apps.ts).
  extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME] } },
};

/** Where no host owner serves the requests (a test's bare session): nothing granted, nobody asked. */
export const NO_CLIENT_SIDE: ClientSide = {
  roots: () => [],
  elicit: (r) => NOBODY_TO_ASK.elicit({ ...r, pluginId: '', conversationId: undefined }),
  sample: (r) => NOBODY_TO_ASK.sample({ ...r, pluginId: '', conversationId: undefined }),
  featuresChanged: () => {},
};

export function serveClientSide(client: Client, side: ClientSide): void {
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: side.roots().map((dir) => ({ uri: pathToFileURL(dir).href, name: path.basename(dir) || dir })),
  }));

  client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
    const p = req.params;
    if (p.mode === 'url') throw new McpError(ErrorCode.InvalidParams, 'Plugboard supports form elicitation only');
    const reply = await side.elicit({
      message: p.message,
      schema: p.requestedSchema as Record<string, unknown>,
      signal: extra.signal,
    });
    return reply;
  });

  client.setRequestHandler(CreateMessageRequestSchema, async (req, extra) => {
    const p = req.params;
    if (p.tools?.length)
      throw new McpError(ErrorCode.InvalidParams, 'Plugboard does not offer tools to a sampling request');
    const messages: SampleMessage[] = [];
    for (const m of p.messages) {
      const text = textOf(m.content);
      if (text === undefined)
        throw new McpError(
          ErrorCode.InvalidParams,
          'Plugboard serves sampling requests with text messages only (no images, audio or tool results)',
        );
      messages.push({ role: m.role, text });
    }
    const r = await side.sample({
      messages,
      ...(p.systemPrompt ? { systemPrompt: p.systemPrompt } : {}),
      maxTokens: p.maxTokens,
      ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
      ...(p.stopSequences?.length ? { stopSequences: p.stopSequences } : {}),
      signal: extra.signal,
    });
    // A denial or a model failure is the request's error (-32603, the SDK's code for a handler's
    // error): the server sees why.
    if (!r.ok) throw new Error(r.message);
    return {
      role: 'assistant' as const,
      content: { type: 'text' as const, text: r.value.text },
      model: r.value.model,
      stopReason: r.value.stopReason,
    };
  });

  client.setNotificationHandler(PromptListChangedNotificationSchema, () => side.featuresChanged('prompts'));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => side.featuresChanged('resources'));
}

/** A sampling message's text: one text block, or several joined; undefined when any is not text. */
function textOf(content: unknown): string | undefined {
  const blocks = Array.isArray(content) ? content : [content];
  const out: string[] = [];
  for (const b of blocks) {
    const r = asRecord(b);
    if (r?.type !== 'text' || typeof r.text !== 'string') return undefined;
    out.push(r.text);
  }
  return out.join('\n');
}
