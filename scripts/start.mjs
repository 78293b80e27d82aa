#!/usr/bin/env node
// `npm start`: build what changed, then open the desktop app where Electron can run; otherwise
// say why and serve the same UI to a browser at a loopback URL (printed below).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { electronSqlite } from './electron-sqlite.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const built = 'out/renderer/index.html';
if (!existsSync(built) || !existsSync('out/main/index.js') || newest('src') > statSync(built).mtimeMs) {
  console.log('Building the app…');
  const r = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** Why Electron cannot open a window here, or null when it can. */
function electronUnavailable() {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return 'ELECTRON_SKIP_BINARY_DOWNLOAD is set';
  const pkg = 'node_modules/electron';
  const pathFile = path.join(pkg, 'path.txt');
  if (!existsSync(pathFile) || !existsSync(path.join(pkg, 'dist', readFileSync(pathFile, 'utf8')))) {
    console.log("Fetching Electron's binary (first run)…");
    const r = spawnSync(process.execPath, [path.join(pkg, 'install.js')], {
      stdio: ['ignore', 'inherit', 'pipe'],
      encoding: 'utf8',
      timeout: 180_000,
    });
    if (r.status !== 0) {
      const cause = (r.stderr ?? '').split('\n').find((l) => /error/i.test(l)) ?? 'no connection';
      return `Electron's binary could not be downloaded (${cause.trim()})`;
    }
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'there is no display (DISPLAY is not set)';
  return null;
}

let why = electronUnavailable();
/** better-sqlite3 built for Electron's ABI, beside the Node build the CLI uses. */
let sqliteBinding = '';
if (why === null) {
  try {
    sqliteBinding = await electronSqlite(root);
  } catch (e) {
    why = `better-sqlite3 could not be built for Electron (${String(e instanceof Error ? e.message : e).split('\n')[0]})`;
  }
}
if (why === null) {
  const env = { ...process.env, PLUGBOARD_SQLITE_BINDING: sqliteBinding };
  const electron = spawn(process.execPath, ['node_modules/electron/cli.js', '.'], { stdio: 'inherit', env });
  electron.on('close', (code) => process.exit(code ?? 0));
} else {
  console.log(`The desktop app cannot run here: ${why}. Serving the same UI to your browser instead.`);
  const server = spawn(process.execPath, ['bin/plugboard.mjs', 'serve', ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
  server.on('close', (code) => process.exit(code ?? 0));
}
