/** `plugboard serve`'s door: the web UI and the contract over WebSocket on a loopback port. */
export {
  DEFAULT_MAX_UPLOAD_BYTES,
  MAX_MESSAGE_BYTES,
  serve,
  WS_BAD_TOKEN,
  type RunningServer,
  type ServeOptions,
} from './server';
