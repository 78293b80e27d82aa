/**
 * The same MCP server over Streamable HTTP, for `plugboard serve`'s `/mcp`: each app that sends
 * `initialize` gets a session of its own (an `Mcp-Session-Id`, the SDK's transport and a server
 * of the hub), so several apps can be connected at once, each with its own list_changed and
 * calls. Every request must carry `Authorization: Bearer <token>`, the token of the URL `serve`
 * prints: without it, 401 and nothing else. (Origin and Host are checked by the server in front.)
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpHub } from './hub';

export interface McpHttpOptions {
  hub: McpHub;
  token: string;
  log(line: string): void;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
}

export class McpHttpEndpoint {
  private readonly sessions = new Map<string, Session>();
  private readonly expected: Buffer;

  constructor(private readonly opts: McpHttpOptions) {
    this.expected = Buffer.from(`Bearer ${opts.token}`);
  }

  /** How many apps are connected now. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Answers one request to `/mcp`. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.authorized(req.headers.authorization)) {
      res.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': 'Bearer realm="plugboard", error="invalid_token"',
      });
      res.end(
        JSON.stringify({
          error: 'missing or wrong token: send Authorization: Bearer <the token of the URL plugboard serve printed>',
        }),
      );
      return;
    }
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const s = this.sessions.get(id);
      if (!s)
        return rpcError(res, 404, -32001, 'no such session (it ended, or the server restarted): initialize again');
      return s.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return rpcError(res, 400, -32000, 'no session: send initialize first, with POST');
    await this.open(req, res);
  }

  /** Ends every session. */
  async close(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.transport.close().catch(() => undefined)));
  }

  /** A new session, if the request is an initialize; the transport says what is wrong otherwise. */
  private async open(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = randomUUID();
    const server = this.opts.hub.createServer(`http (session ${id.slice(0, 8)})`);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => void this.sessions.set(id, { transport, server }),
    });
    transport.onclose = () => {
      this.sessions.delete(id);
      void server.close().catch(() => undefined);
    };
    await server.connect(transport);
    try {
      await transport.handleRequest(req, res);
    } finally {
      // Not an initialize (the transport answered why): nothing to keep.
      if (!this.sessions.has(id)) await transport.close().catch(() => undefined);
    }
  }

  private authorized(header: string | undefined): boolean {
    if (typeof header !== 'string') return false;
    const given = Buffer.from(header);
    return given.length === this.expected.length && timingSafeEqual(given, this.expected);
  }
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
