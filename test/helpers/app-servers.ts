/**
 * The official example MCP App servers from the npm registry (`@modelcontextprotocol/server-*`,
 * published from the ext-apps repository), as Plugboard plugins: each is installed once with npm
 * into a folder of its own in the temp dir (kept between runs: a second run finds it ready), and
 * that folder gets a plugboard.json that runs it over stdio (`--stdio`; without it they listen on
 * port 3001 on every interface). `plugboard plugins install <folder>` then installs it as a
 * person would install a server they downloaded. Needs the npm registry on its first run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The servers the tests use, pinned: what they render is what the tests look for. */
export const APP_SERVERS = {
  'basic-vanillajs': {
    pkg: '@modelcontextprotocol/server-basic-vanillajs',
    version: '2.0.3',
    name: 'Get Time (Vanilla JS)',
  },
  'basic-react': { pkg: '@modelcontextprotocol/server-basic-react', version: '2.0.3', name: 'Get Time (React)' },
  'budget-allocator': {
    pkg: '@modelcontextprotocol/server-budget-allocator',
    version: '2.0.3',
    name: 'Budget Allocator',
  },
  'system-monitor': { pkg: '@modelcontextprotocol/server-system-monitor', version: '2.0.3', name: 'System Monitor' },
} as const;

export type AppServerName = keyof typeof APP_SERVERS;

/** A plugin folder running the example server `name` (installed with npm on first use). */
export function appServerPlugin(name: AppServerName): string {
  const s = APP_SERVERS[name];
  const dir = path.join(os.tmpdir(), 'plugboard-app-servers', `${name}-${s.version}`);
  if (!existsSync(path.join(dir, '.ready'))) {
    // Installed beside, then moved into place: a run that dies half-way leaves nothing half-made.
    const partial = `${dir}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    writeFileSync(path.join(partial, 'package.json'), JSON.stringify({ name: `app-server-${name}`, private: true }));
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--omit=dev', '--ignore-scripts', `${s.pkg}@${s.version}`],
      { cwd: partial, stdio: 'pipe', timeout: 300_000 },
    );
    writeFileSync(path.join(partial, '.ready'), s.version);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(path.dirname(dir), { recursive: true });
    renameSync(partial, dir);
  }
  writeFileSync(
    path.join(dir, 'plugboard.json'),
    JSON.stringify(
      {
        id: `app-${name}`,
        name: s.name,
        version: s.version,
        description: `The official MCP Apps example server ${s.pkg}`,
        protocol: 'mcp',
        command: ['node', `node_modules/${s.pkg}/dist/index.js`, '--stdio'],
        persistent: true,
        // A first run of node with a large bundle on a busy machine can take a few seconds.
        timeouts: { handshakeMs: 30_000 },
      },
      null,
      2,
    ),
  );
  return dir;
}
