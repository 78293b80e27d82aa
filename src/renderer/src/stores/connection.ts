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

/** Follows the transport; calls `onReopen` when a lost link comes back (events were missed). */
export function startConnection(onReopen: () => void): void {
  onConnectionState((state) => {
    const { everOpen } = useConnection.getState();
    useConnection.setState({ state, everOpen: everOpen || state.status === 'open' });
    if (state.status === 'open' && everOpen) onReopen();
  });
}
