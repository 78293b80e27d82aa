/** `plugboard serve`'s door: the web UI and the contract over WebSocket on a loopback port (and `/mcp`, handed in). */
export {
  DEFAULT_MAX_UPLOAD_BYTES,
  isLoopback,
  MAX_MESSAGE_BYTES,
  serve,
  WS_BAD_TOKEN,
  type RunningServer,
  type ServeOptions,
} from './server';
