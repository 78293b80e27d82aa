/**
 * Wiring the stores to the API's events, once, at start. Components never subscribe to the API
 * themselves; they read stores.
 */
import { getApi } from '../api';
import { create } from 'zustand';
import type { AppInfo } from '../../../shared/contract';
import { applyPassthrough, applyTurn, applyUpdated } from './chat/turns';
import { resyncChat, startChat } from './chat/actions';
import { startConnection, useConnection } from './connection';
import { invalidatePalette } from './palette';
import { detailChanged } from './plugin-detail';
import { applyLog } from './plugin-logs';
import { applyHealth, scheduleRefresh, usePlugins } from './plugins';
import { startUi } from './ui';

export const useAppInfo = create<{ info: AppInfo | null }>()(() => ({ info: null }));

export function startStores(): void {
  startUi();
  const api = getApi();
  api.on('chat.turn', applyTurn);
  api.on('chat.passthrough', applyPassthrough);
  api.on('chat.updated', applyUpdated);
  api.on('health', applyHealth);
  api.on('log', applyLog);
  api.on('plugins.changed', (e) => {
    scheduleRefresh();
    detailChanged(e.id);
    invalidatePalette();
  });
  // Whatever was missed (events while the link was down, or answers that gave up waiting for a
  // slow first connection) is fetched again.
  startConnection(() => {
    void usePlugins.getState().refresh();
    void resyncChat();
    invalidatePalette();
    if (!useAppInfo.getState().info) loadInfo();
  });
  if (useConnection.getState().state.status === 'no-token') return;
  void usePlugins.getState().refresh();
  void startChat();
  loadInfo();
}

function loadInfo(): void {
  getApi()
    .invoke('app.info', {})
    .then(
      (info) => useAppInfo.setState({ info }),
      () => undefined,
    );
}
