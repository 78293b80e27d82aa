/**
 * Settings that belong to this computer's Plugboard rather than to a model: the default approval
 * policy (the registry's), the sandbox status (the host's probe), and opening the data folder.
 * Read when their section opens; a change reads the value back, so the page shows what was kept.
 */
import { create } from 'zustand';
import type { ApprovalDefault } from '../../../shared/assistant';
import type { SandboxStatusView } from '../../../shared/contract';
import { getApi } from '../api';
import type { Done } from '../../../shared/failures';
import { attempt } from './models';
import { errorText } from './toasts';

interface SystemSettingsState {
  approvalDefault: ApprovalDefault | null;
  sandbox: SandboxStatusView | null;
  loadError: string | null;
}

export const useSystemSettings = create<SystemSettingsState>()(() => ({
  approvalDefault: null,
  sandbox: null,
  loadError: null,
}));

export async function loadApprovalDefault(): Promise<void> {
  try {
    useSystemSettings.setState({
      approvalDefault: (await getApi().invoke('approvals.default', {})).policy,
      loadError: null,
    });
  } catch (e) {
    useSystemSettings.setState({ loadError: errorText(e) });
  }
}

export async function saveApprovalDefault(policy: ApprovalDefault): Promise<Done> {
  const r = await attempt(() => getApi().invoke('approvals.setDefault', { policy }));
  await loadApprovalDefault();
  return r;
}

export async function loadSandboxStatus(): Promise<void> {
  try {
    useSystemSettings.setState({ sandbox: await getApi().invoke('app.sandbox', {}), loadError: null });
  } catch (e) {
    useSystemSettings.setState({ loadError: errorText(e) });
  }
}

export function openDataFolder(): Promise<Done> {
  return attempt(() => getApi().invoke('app.openDataFolder', {}));
}
