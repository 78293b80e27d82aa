/** The state of the link to the main process, as the UI shows it. */
export type ConnectionState =
  | { status: 'connecting' }
  | { status: 'open' }
  | { status: 'reconnecting'; attempt: number; retryAt: number; reason: string }
  /** No token, so there is nothing to connect to: the page was opened without the printed URL. */
  | { status: 'no-token' };

export type ConnectionListener = (state: ConnectionState) => void;
