/**
 * Wiring the stores to the API's events, once, at start. Components never subscribe to the API
 * themselves; they read stores.
 *
 * One style for every store in this folder: a zustand store holds state only (plain data, no
 * functions), and what changes it are plain functions exported beside it, which read with
 * `getState()` and write with `setState()`. Why this style rather than actions inside the store:
 * most callers are not components (this wiring, keyboard shortcuts, other stores, the stream
 * buffer) and call an action as an import instead of through `getState()`; a domain's actions can
 * span several files (chat: actions, events, snapshots), which one `create()` call could not hold
 * without slices; and a component selects only the small slice of data it shows, never functions.
 * The rules that go with it: one store per domain, and only stores talk to the api module.
 */
import { getApi } from '../api';
import { setStreaming } from '../perf/probe';
import { loadAppInfo } from './app-info';
import { applyExternalApprovals, loadExternalApprovals } from './external-approvals';
import { resyncChat, startChat } from './chat/actions';
import { anyRunning } from './chat/running';
import { useChat } from './chat/state';
import { applyPassthrough, applyTurn, applyUpdated } from './chat/turns';
import { startConnection, useConnection } from './connection';
import { invalidatePalette } from './palette';
import { detailChanged } from './plugin-detail';
import { applyLog } from './plugin-logs';
import { loadModels } from './models';
import { applyHealth, refreshPlugins, scheduleRefresh } from './plugins';
import { applySaveState, loadSaveState } from './save-state';
import { startUi } from './ui';

export function startStores(): void {
  startUi();
  // The perf probe times frames while any turn runs: it follows the chat store, so it cannot
  // tell a different story from the one on screen.
  useChat.subscribe((s, prev) => {
    if (s.running !== prev.running) setStreaming(anyRunning(s.running));
  });
  const api = getApi();
  api.on('chat.turn', applyTurn);
  api.on('chat.passthrough', applyPassthrough);
  api.on('chat.updated', applyUpdated);
  api.on('chat.saveState', applySaveState);
  api.on('health', applyHealth);
  api.on('log', applyLog);
  api.on('models.changed', () => void loadModels());
  api.on('approvals.external', (e) => applyExternalApprovals(e.pending));
  api.on('plugins.changed', (e) => {
    scheduleRefresh();
    detailChanged(e.id);
    invalidatePalette();
  });
  // Whatever was missed (events while the link was down, or answers that gave up waiting for a
  // slow first connection) is fetched again.
  startConnection(() => {
    void refreshPlugins();
    void resyncChat();
    invalidatePalette();
    loadAppInfo();
    loadSaveState();
    void loadModels();
    void loadExternalApprovals();
  });
  if (useConnection.getState().state.status === 'no-token') return;
  void refreshPlugins();
  void startChat();
  void loadModels();
  loadAppInfo();
  loadSaveState();
  void loadExternalApprovals();
}
