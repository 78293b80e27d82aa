/** The link to the main process, for the "Reconnecting…" bar and the no-token screen. */
import { create } from 'zustand';
import { connectionState, onConnectionState, retryConnection, type ConnectionState } from '../api';

interface ConnectionStore {
  state: ConnectionState;
  /** Whether the link was ever open: the first connect is "connecting", later ones "reconnecting". */
  everOpen: boolean;
  retry(): void;
}

export const useConnection = create<ConnectionStore>()(() => ({
  state: connectionState(),
  everOpen: connectionState().status === 'open',
  retry: retryConnection,
}));

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
