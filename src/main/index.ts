// Electron entry: wiring only. The host, registry and chat run in this process; the window
// talks to them through the contract over IPC.
import { app, dialog, shell, type BrowserWindow } from 'electron';
import { FailureError } from '../shared/failures';
import path from 'node:path';
import { Backend } from './service';
import { appSecretStore, createWindow, isAppUrl, registerAppFrameScheme, secureSession, serveAppFrames } from './app';
import { PluginRegistry } from './plugins';
import { bindContract } from './ipc';

// PLUGBOARD_HOME gives the app another profile (the end-to-end tests use a fresh one).
if (process.env.PLUGBOARD_HOME) app.setPath('userData', path.resolve(process.env.PLUGBOARD_HOME));
if (!app.requestSingleInstanceLock()) app.quit();
// MCP Apps are framed from plugboard-app: (app/app-frames.ts), which must be registered before ready.
registerAppFrameScheme();

let win: BrowserWindow | null = null;
let registry: PluginRegistry | null = null;
let backend: Backend | null = null;

async function start(): Promise<void> {
  secureSession();
  const dataDir = app.getPath('userData');
  const resources = app.isPackaged ? process.resourcesPath : app.getAppPath();
  registry = await PluginRegistry.open({
    dataDir,
    bundledDir: path.join(resources, 'plugins'),
    secrets: appSecretStore(path.join(dataDir, 'secrets.json')),
    execPath: process.execPath,
    isElectron: true,
    nodeModules: path.join(
      app.isPackaged ? path.join(process.resourcesPath, 'app.asar.unpacked') : app.getAppPath(),
      'node_modules',
    ),
    autostart: true,
  });
  // What opening the data directory tidied (modes tightened, leftover plugin processes stopped).
  for (const note of registry.startupNotes) console.warn(`plugboard: ${note}`);
  backend = await Backend.create({
    registry,
    version: app.getVersion(),
    transport: 'ipc',
    openFolder: (dir) => shell.openPath(dir),
    // A sign-in's authorization page, built by the main process itself (never a page's link).
    openExternal: (url) => {
      if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    },
    openLink: (url) =>
      shell.openExternal(url).then(
        () => '',
        (e: unknown) => (e as Error).message,
      ),
    // Other apps' calls through `plugboard mcp` on this folder are approved here too.
    approvalInbox: true,
    // From a checkout, other apps run `plugboard mcp` with this Electron as Node. A packaged app
    // ships no `plugboard` command: Settings then says to install the CLI.
    ...(app.isPackaged
      ? {}
      : {
          mcpLaunch: {
            command: process.execPath,
            args: [path.join(app.getAppPath(), 'bin', 'plugboard.mjs'), 'mcp', '--data-dir', dataDir],
            env: { ELECTRON_RUN_AS_NODE: '1' },
          },
        }),
  });
  serveAppFrames(backend.frames);
  bindContract(backend, () => win, isAppUrl);
  win = createWindow();
  win.on('closed', () => (win = null));
}

app.on('second-instance', () => {
  if (win) {
    if (win.isMinimized()) win.restore();
    win.focus();
  }
});

app.on('window-all-closed', () => app.quit());

let quitting = false;
app.on('before-quit', (event) => {
  if (quitting || !registry) return;
  // Stop every plugin (their whole process groups) before the app goes: no orphans.
  event.preventDefault();
  quitting = true;
  backend?.dispose();
  void registry.shutdown().finally(() => app.quit());
});

void app.whenReady().then(() =>
  start().catch((e: unknown) => {
    // Another Plugboard holds this profile, or a data file is damaged: say what to do, and quit.
    const message = e instanceof FailureError ? e.message : `${(e as Error).stack ?? String(e)}`;
    dialog.showErrorBox('Plugboard cannot start', message);
    app.exit(1);
  }),
);
