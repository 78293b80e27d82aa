/**
 * The requests an MCP server sends to Plugboard, and the notifications about its lists, through
 * the SDK's `Client` handlers: `roots/list` (the folders the person granted, as file:// URIs),
 * `elicitation/create` (a form for the person to fill, or, in URL mode, a web page for them to
 * open once they agree), `sampling/createMessage` (a reply from the conversation's model, once
 * the person allowed it), and list_changed for prompts and resources (read on demand, so the
 * screen is only told to read them again). The same handlers answer a 2025 server's requests
 * and the "input required" results of a 2026 server (the SDK routes both here).
 *
 * Who answers is the host's owner (ClientSide): this file turns the wire's shapes into ours and
 * back, and refuses what Plugboard does not serve (a page that is not http(s), non-text sampling).
 */
import { pathToFileURL } from 'node:url';
import {
  ProtocolError,
  ProtocolErrorCode,
  type Client,
  type ClientCapabilities,
  type CreateMessageRequest,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import path from 'node:path';
import { APP_MIME, UI_EXTENSION } from '../../../shared/apps';
import { NOBODY_TO_ASK, type ClientSide, type SampleMessage } from '../asks';
import { asRecord } from './values';

/** What Plugboard declares it serves (the `initialize` capabilities of its client). */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  roots: { listChanged: true },
  elicitation: { form: {}, url: {} },
  sampling: {},
  // The tasks extension of the 2026-07-28 revision (mcp-tasks-2026.ts), and MCP Apps: tools may
  // name an App page, which the screen shows in their cards (mcp-apps.ts).
  extensions: { 'io.modelcontextprotocol/tasks': {}, [UI_EXTENSION]: { mimeTypes: [APP_MIME] } },
};

/** Where no host owner serves the requests (a test's bare session): nothing granted, nobody asked. */
export const NO_CLIENT_SIDE: ClientSide = {
  roots: () => [],
  elicit: (r) => NOBODY_TO_ASK.elicit({ ...r, pluginId: '', conversationId: undefined }),
  sample: (r) => NOBODY_TO_ASK.sample({ ...r, pluginId: '', conversationId: undefined }),
  featuresChanged: () => {},
};

export function serveClientSide(client: Client, side: ClientSide): void {
  const answer = answersOf(side);
  client.setRequestHandler('roots/list', () => answer.roots());
  client.setRequestHandler('elicitation/create', (req, ctx) => answer.elicit(req.params, ctx.mcpReq.signal));
  client.setRequestHandler('sampling/createMessage', (req, ctx) => answer.sample(req.params, ctx.mcpReq.signal));
  client.setNotificationHandler('notifications/prompts/list_changed', () => side.featuresChanged('prompts'));
  client.setNotificationHandler('notifications/resources/list_changed', () => side.featuresChanged('resources'));
}

type ElicitParams = ElicitRequest['params'];
type SampleParams = CreateMessageRequest['params'];

/**
 * The answers to what a server asks, whichever way it asks: a 2025 server's request, a 2026
 * server's input-required result (both through the SDK's handlers), or a question of a 2026
 * task (mcp-tasks-2026.ts).
 */
export interface ClientAnswers {
  roots(): { roots: Array<{ uri: string; name: string }> };
  elicit(params: ElicitParams, signal: AbortSignal): Promise<ElicitResult>;
  sample(
    params: SampleParams,
    signal: AbortSignal,
  ): Promise<{ role: 'assistant'; content: { type: 'text'; text: string }; model: string; stopReason: string }>;
}

export function answersOf(side: ClientSide): ClientAnswers {
  return {
    roots: () => ({
      roots: side.roots().map((dir) => ({ uri: pathToFileURL(dir).href, name: path.basename(dir) || dir })),
    }),

    elicit: async (p, signal) => {
      if (p.mode === 'url') {
        let url: URL;
        try {
          url = new URL(p.url);
        } catch {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `"${p.url}" is not a URL`);
        }
        if (url.protocol !== 'https:' && url.protocol !== 'http:')
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Plugboard opens http and https pages only');
        const reply = await side.elicit({ message: p.message, schema: {}, url: url.href, signal });
        // URL mode: "accept" says the person opened the page; what they do there stays between them and the server.
        return reply.action === 'accept' ? { action: 'accept' as const } : reply;
      }
      const reply = await side.elicit({
        message: p.message,
        schema: p.requestedSchema as Record<string, unknown>,
        signal,
      });
      // The fields were checked against the server's schema on the card (flat: strings, numbers, booleans, lists).
      return reply as ElicitResult;
    },

    sample: async (p, signal) => {
      if ('tools' in p && Array.isArray(p.tools) && p.tools.length)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          'Plugboard does not offer tools to a sampling request',
        );
      const messages: SampleMessage[] = [];
      for (const m of p.messages) {
        const text = textOf(m.content);
        if (text === undefined)
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
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
        signal,
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
    },
  };
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
