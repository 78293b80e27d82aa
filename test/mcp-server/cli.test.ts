/**
 * The commands around Plugboard as an MCP server, as a person runs them: `plugboard mcp
 * --print-config APP` (the snippet an app's config takes), and `plugboard serve` beyond loopback,
 * which refuses to start in clear unless told the network is trusted, and serves `/mcp` over TLS
 * with a certificate (a self-signed one made with openssl here).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plugboard } from '../helpers/cli';
import { cleanupFixtures, REPO, tmpDir } from '../helpers/plugins';

let root: string;
let data: string;
let rendererDir: string;

beforeAll(() => {
  root = tmpDir('mcp-cli');
  data = path.join(root, 'data');
  rendererDir = path.join(root, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Plugboard</title>');
});

afterAll(() => cleanupFixtures());

describe('plugboard mcp --print-config', () => {
  it.each([
    ['claude', 'mcpServers', {}],
    ['cursor', 'mcpServers', {}],
    ['vscode', 'servers', { type: 'stdio' }],
  ])(
    'prints %s’s snippet: this Node and this checkout’s command, absolute, and the data folder',
    async (app, key, extra) => {
      const r = await plugboard(['mcp', '--print-config', app, '--data-dir', data]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        [key]: {
          plugboard: {
            ...extra,
            command: process.execPath,
            args: [path.join(REPO, 'bin', 'plugboard.mjs'), 'mcp', '--data-dir', data],
          },
        },
      });
      expect(r.stderr).toMatch(/^Put this in (Claude Desktop|Cursor|VS Code)'s MCP config \(/);
    },
  );

  it('names the apps it knows when given another (exit 2)', async () => {
    const r = await plugboard(['mcp', '--print-config', 'emacs']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--print-config takes claude, cursor, vscode, got "emacs"');
  });
});

/** `plugboard serve ARGS` started, with the lines it printed once it runs. */
function startServe(args: string[]): Promise<{ child: ChildProcess; out: string }> {
  const child = spawn(
    process.execPath,
    [path.join(REPO, 'bin', 'plugboard.mjs'), 'serve', ...args, '--data-dir', data],
    {
      env: { ...process.env, PLUGBOARD_RENDERER_DIR: rendererDir },
    },
  );
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ctrl-C to stop')) resolve({ child, out });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGINT');
  return exited;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

describe('plugboard serve beyond loopback', () => {
  it('refuses to start in clear on another address, and says what to do', async () => {
    const r = await plugboard(['serve', '--host', '0.0.0.0', '--data-dir', data]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '--host 0.0.0.0 makes Plugboard and its plugins reachable from other machines, and its token would cross the network in clear: give --tls-cert and --tls-key, or --trusted-network',
    );
  });

  it('starts with --trusted-network, printing the MCP endpoint and its header', async () => {
    const { child, out } = await startServe(['--host', '0.0.0.0', '--port', '0', '--trusted-network']);
    try {
      const m = /running at (http:\/\/0\.0\.0\.0:(\d+)\/\?token=([\w-]+))/.exec(out);
      expect(m).not.toBeNull();
      const [, , port, token] = m as RegExpExecArray;
      expect(out).toContain(`MCP clients: http://0.0.0.0:${port}/mcp with the header "Authorization: Bearer ${token}"`);
      const r = await fetch(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: initialize,
      });
      expect(r.status).toBe(200);
      expect(r.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });

  const openssl = spawnSync('openssl', ['version']).status === 0;
  it.skipIf(!openssl)('serves /mcp over TLS with a certificate (skipped without openssl)', async () => {
    const cert = path.join(root, 'cert.pem');
    const key = path.join(root, 'key.pem');
    const made = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ]);
    expect(made.status, made.stderr.toString()).toBe(0);
    const { child, out } = await startServe(['--host', '0.0.0.0', '--port', '0', '--tls-cert', cert, '--tls-key', key]);
    try {
      const [, port, token] = /running at https:\/\/0\.0\.0\.0:(\d+)\/\?token=([\w-]+)/.exec(out) as RegExpExecArray;
      const status = await new Promise<number>((resolve, reject) => {
        const req = https.request(
          `https://127.0.0.1:${port}/mcp`,
          {
            method: 'POST',
            ca: readFileSync(cert),
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(initialize);
      });
      expect(status).toBe(200);
      // Plain HTTP gets no MCP session from a TLS server.
      await expect(fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', body: initialize })).rejects.toThrow();
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });
});
