/** The link to the main process, for the "Reconnecting…" bar and the no-token screen. */
import { create } from 'zustand';
import { connectionState, onConnectionState, retryConnection as retryTransport, type ConnectionState } from '../api';

interface ConnectionStore {
  state: ConnectionState;
  /** Whether the link was ever open: the first connect is "connecting", later ones "reconnecting". */
  everOpen: boolean;
}

export const useConnection = create<ConnectionStore>()(() => ({
  state: connectionState(),
  everOpen: connectionState().status === 'open',
}));

/** "Retry now": tries to connect at once instead of waiting for the next attempt. */
export function retryConnection(): void {
  retryTransport();
}

/**
 * Follows the transport; calls `onResync` when the link opens after something was missed: events
 * (a lost link came back), or answers (requests gave up waiting for it, as on a slow first open).
 */
export function startConnection(onResync: () => void): void {
  onConnectionState((state) => {
    const { everOpen } = useConnection.getState();
    useConnection.setState({ state, everOpen: everOpen || state.status === 'open' });
    if (state.status === 'open' && (everOpen || state.missed)) onResync();
  });
}
