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
  return startListening(path.join(FIXTURES, 'mcp-http', 'server.mjs'), args);
}

/** Runs a fixture script that prints `listening <url>`; resolves once it has. The caller kills `proc`. */
export function startListening(script: string, args: string[] = []): Promise<HttpServer> {
  const proc = spawn(process.execPath, [script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (d) => {
      out += d;
      const m = /listening (\S+)/.exec(out);
      if (m) resolve({ url: m[1] as string, proc });
    });
    proc.on('exit', (code) => reject(new Error(`${path.basename(script)} exited (${code}) before it listened`)));
  });
}
