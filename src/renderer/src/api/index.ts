/**
 * The one way into the main process. In Electron the preload provides `window.plugboard` (IPC);
 * in a browser we speak the same contract over WebSocket. Only stores call this module.
 */
import { failure } from '../../../shared/failures';
import { unwrapAnswer, type CommandOutput, type PlugboardApi, type PlugboardBridge } from '../../../shared/contract';
import type { ConnectionListener, ConnectionState } from './connection';
import { takeToken } from './token';
import { uploadFile, type UploadResult } from './upload';
import { WsClient } from './ws-client';

export type { ConnectionState } from './connection';

declare global {
  interface Window {
    plugboard?: PlugboardBridge;
  }
}

interface Transport {
  api: PlugboardApi;
  kind: 'ipc' | 'websocket' | 'none';
  state(): ConnectionState;
  onState(l: ConnectionListener): () => void;
  retryNow(): void;
  token: string | null;
}

let transport: Transport | null = null;

function isBridge(v: unknown): v is PlugboardBridge {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as PlugboardBridge).invoke === 'function' &&
    typeof (v as PlugboardBridge).on === 'function'
  );
}

/** Used when the page was opened without a token: every call explains how to get in. */
const noTokenApi: PlugboardApi = {
  invoke: () => Promise.reject(new Error('No access token: open the URL that `plugboard serve` printed.')),
  on: () => () => undefined,
};

function create(): Transport {
  const bridge = window.plugboard;
  if (isBridge(bridge)) {
    const open: ConnectionState = { status: 'open', missed: false };
    return {
      // The preload answers with the contract's Answer: unwrapped here as the WebSocket client does.
      api: {
        invoke: (name, input) => bridge.invoke(name, input).then((a) => unwrapAnswer(a) as CommandOutput<typeof name>),
        on: (name, listener) => bridge.on(name, listener),
      },
      kind: 'ipc',
      state: () => open,
      onState: () => () => undefined,
      retryNow: () => undefined,
      token: null,
    };
  }
  const token = takeToken();
  if (!token) {
    const none: ConnectionState = { status: 'no-token' };
    return {
      api: noTokenApi,
      kind: 'none',
      state: () => none,
      onState: () => () => undefined,
      retryNow: () => undefined,
      token: null,
    };
  }
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const client = new WsClient(`${scheme}://${window.location.host}/ws?token=${encodeURIComponent(token)}`);
  return {
    api: client,
    kind: 'websocket',
    state: () => client.getState(),
    onState: (l) => client.onState(l),
    retryNow: () => client.retryNow(),
    token,
  };
}

function get(): Transport {
  return (transport ??= create());
}

export function getApi(): PlugboardApi {
  return get().api;
}

export function transportKind(): Transport['kind'] {
  return get().kind;
}

export function connectionState(): ConnectionState {
  return get().state();
}

export function onConnectionState(listener: ConnectionListener): () => void {
  return get().onState(listener);
}

export function retryConnection(): void {
  get().retryNow();
}

/** Where other apps reach this server's MCP endpoint, with the page's token (the web UI only). */
export function mcpHttpEndpoint(): { url: string; token: string } | null {
  const { kind, token } = get();
  return kind === 'websocket' && token ? { url: `${window.location.origin}/mcp`, token } : null;
}

/** The filesystem path of a dropped file, when the desktop app can tell it; otherwise null. */
export function pathForFile(file: File): string | null {
  const fn = window.plugboard?.pathForFile;
  if (typeof fn !== 'function') return null;
  try {
    return fn(file) || null;
  } catch {
    return null;
  }
}

/** Whether dropped files are installed by path (desktop) rather than uploaded (web). */
export function installsByPath(): boolean {
  return typeof window.plugboard?.pathForFile === 'function';
}

/** Uploads a file to attach to a message (the web UI, for files too large to send inline). */
export function uploadAttachment(file: File): Promise<UploadResult> {
  const token = get().token;
  if (!token)
    return Promise.resolve(
      failure('disconnected', 'Uploading needs the web UI’s access token; reopen the URL `plugboard serve` printed.'),
    );
  return uploadFile(file, token, 'attachment');
}

export function upload(file: File): Promise<UploadResult> {
  const token = get().token;
  if (!token)
    return Promise.resolve(
      failure('disconnected', 'Uploading needs the web UI’s access token; reopen the URL `plugboard serve` printed.'),
    );
  return uploadFile(file, token);
}
