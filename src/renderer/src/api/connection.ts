/** The state of the link to the main process, as the UI shows it. */
export type ConnectionState =
  | { status: 'connecting' }
  /**
   * `missed`: requests gave up waiting for this connection (it took longer than they wait), so
   * what they were to load is missing, even on a first connection.
   */
  | { status: 'open'; missed: boolean }
  | { status: 'reconnecting'; attempt: number; retryAt: number; reason: string }
  /**
   * No token, so there is nothing to connect to: the page was opened without the printed URL, or
   * (`restarted`) the server this page was connected to refused its token: it was started again.
   */
  | { status: 'no-token'; restarted?: boolean };

export type ConnectionListener = (state: ConnectionState) => void;
