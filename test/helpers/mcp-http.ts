/** The Streamable HTTP MCP server fixture (test/fixtures/mcp-http), run as its own process on loopback. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { FIXTURES } from './plugins';

export interface HttpServer {
  url: string;
  proc: ChildProcess;
}

/** Starts the server; resolves with its URL once it listens. The caller kills `proc`. */
export function startMcpHttp(args: string[] = []): Promise<HttpServer> {
  const proc = spawn(process.execPath, [path.join(FIXTURES, 'mcp-http', 'server.mjs'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (d) => {
      out += d;
      const m = /listening (\S+)/.exec(out);
      if (m) resolve({ url: m[1] as string, proc });
    });
    proc.on('exit', (code) => reject(new Error(`the MCP HTTP server exited (${code}) before it listened`)));
  });
}
