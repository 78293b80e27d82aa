/**
 * Calls other apps (MCP clients of Plugboard on this data folder) wait to have approved: the
 * back end pushes the list whenever it changes; the person's answer goes back, and a request
 * answered meanwhile in the asking app comes back refused, which the card says.
 */
import { create } from 'zustand';
import type { ExternalApprovalView, ExternalDecision } from '../../../shared/contract';
import { getApi } from '../api';
import { errorText } from './toasts';

interface ExternalApprovalsState {
  pending: ExternalApprovalView[];
  /** The answer being sent for the request on screen. */
  busy: ExternalDecision | null;
  /** Why the last answer was refused, for the request it was about. */
  refusal: { id: string; message: string } | null;
}

export const useExternalApprovals = create<ExternalApprovalsState>()(() => ({
  pending: [],
  busy: null,
  refusal: null,
}));

export function applyExternalApprovals(pending: ExternalApprovalView[]): void {
  useExternalApprovals.setState((s) => ({
    pending,
    refusal: s.refusal && pending.some((p) => p.id === s.refusal?.id) ? s.refusal : null,
  }));
}

export async function loadExternalApprovals(): Promise<void> {
  try {
    applyExternalApprovals(await getApi().invoke('approvals.external', {}));
  } catch {
    // Not reachable now: the next event, or the reconnect, brings the list.
  }
}

export async function answerExternal(id: string, decision: ExternalDecision): Promise<void> {
  useExternalApprovals.setState({ busy: decision, refusal: null });
  try {
    const r = await getApi().invoke('approvals.answerExternal', { id, decision });
    if (!r.ok) {
      useExternalApprovals.setState({ refusal: { id, message: r.message } });
      await loadExternalApprovals();
    }
  } catch (e) {
    useExternalApprovals.setState({ refusal: { id, message: errorText(e) } });
  } finally {
    useExternalApprovals.setState({ busy: null });
  }
}
