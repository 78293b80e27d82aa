/**
 * The app's back end as `plugboard serve` and the desktop app build it: a real registry on a
 * data directory (bundled plugins included), the contract backend over it, and optionally the
 * HTTP and WebSocket server in front, on a free port with a minimal page.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { Backend } from '../../src/main/service/backend';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { serve, type RunningServer, type ServeOptions } from '../../src/main/server/server';
import type { ChatMessage } from '../../src/shared/contract';
import { REPO, tmpDir } from './plugins';

export interface TestApp {
  registry: PluginRegistry;
  backend: Backend;
  /** Disposes the backend, then stops every plugin. */
  close(): Promise<void>;
}

export async function openApp(
  dataDir: string,
  /** `parentEnv`: Plugboard's own environment (the person's npm settings, say); the test's by default. */
  opts: { uploadsDir?: string; parentEnv?: NodeJS.ProcessEnv } = {},
): Promise<TestApp> {
  // The app's node_modules, as the app gives them to plugins (PLUGBOARD_NODE_MODULES).
  const registry = await PluginRegistry.open({
    dataDir,
    bundledDir: path.join(REPO, 'plugins'),
    nodeModules: path.join(REPO, 'node_modules'),
    env: { PLUGBOARD_TEST_RUN: String(process.pid) },
    ...(opts.parentEnv ? { parentEnv: opts.parentEnv } : {}),
  });
  const backend = await Backend.create({
    registry,
    version: 'test',
    transport: 'websocket',
    ...(opts.uploadsDir ? { uploadsDir: opts.uploadsDir } : {}),
  });
  return {
    registry,
    backend,
    close: async () => {
      backend.dispose();
      await registry.shutdown();
      registry.dispose();
    },
  };
}

export interface ServedApp extends TestApp {
  server: RunningServer;
  uploadsDir: string;
  staticDir: string;
}

/** The backend behind `serve`, wired as `plugboard serve` wires them (one uploads folder for both). */
export async function serveApp(
  name: string,
  opts: Pick<ServeOptions, 'maxUploadBytes' | 'log' | 'uploadQuotaBytes' | 'uploadMaxAgeMs'> = {},
): Promise<ServedApp> {
  const root = tmpDir(name);
  const staticDir = path.join(root, 'renderer');
  mkdirSync(staticDir);
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Plugboard</title>');
  const uploadsDir = path.join(root, 'uploads');
  const app = await openApp(path.join(root, 'data'), { uploadsDir });
  const server = await serve({ backend: app.backend, staticDir, port: 0, uploadsDir, log: () => undefined, ...opts });
  return {
    ...app,
    server,
    uploadsDir,
    staticDir,
    close: async () => {
      await server.close();
      // The server removes its uploads folder when it stops.
      expect(existsSync(uploadsDir)).toBe(false);
      await app.close();
    },
  };
}

/** Resolves with the final message of a chat turn, when the backend announces its end. */
export function finalMessage(backend: Backend, turnId: string): Promise<ChatMessage> {
  return new Promise((resolve) => {
    const sub = backend.onDidEvent((e) => {
      if (e.name === 'chat.turn' && e.payload.type === 'end' && e.payload.turnId === turnId) {
        sub.dispose();
        resolve(e.payload.message);
      }
    });
  });
}
