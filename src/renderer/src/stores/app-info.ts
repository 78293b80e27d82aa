/** What this build is (version, platform, transport, data directory, secret store): asked once. */
import { create } from 'zustand';
import type { AppInfo } from '../../../shared/contract';
import { getApi } from '../api';

export const useAppInfo = create<{ info: AppInfo | null }>()(() => ({ info: null }));

/** Asks for the facts unless they are known; a failure leaves them unknown until the next try. */
export function loadAppInfo(): void {
  if (useAppInfo.getState().info) return;
  getApi()
    .invoke('app.info', {})
    .then(
      (info) => useAppInfo.setState({ info }),
      () => undefined,
    );
}
