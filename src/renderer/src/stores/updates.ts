/**
 * "Check for updates": each installed plugin's origin asked for its version (`updates.check`,
 * which changes nothing), an update reviewed before anything is installed (`updates.preview`: the
 * new version staged and tried, what changes in its tools), installed on the person's yes
 * (`updates.commit`), and the version it replaced put back with Roll back (`plugins.rollback`).
 */
import { create } from 'zustand';
import type { UpdateCheckView, UpdatePreviewView } from '../../../shared/updates';
import { getApi } from '../api';
import { detailChanged } from './plugin-detail';
import { runOp } from './ops';
import { scheduleRefresh } from './plugins';
import { errorText, toastInfo } from './toasts';

interface Review {
  token: string;
  preview: UpdatePreviewView;
  committing: boolean;
  error: string | null;
}

interface UpdatesState {
  open: boolean;
  checking: boolean;
  results: UpdateCheckView[] | null;
  error: string | null;
  /** The plugin whose update is being staged and tried. */
  staging: string | null;
  review: Review | null;
}

export const useUpdates = create<UpdatesState>()(() => ({
  open: false,
  checking: false,
  results: null,
  error: null,
  staging: null,
  review: null,
}));

let seq = 0;

export async function checkForUpdates(): Promise<void> {
  const mine = ++seq;
  useUpdates.setState({ open: true, checking: true, error: null, review: null, staging: null });
  try {
    const r = await getApi().invoke('updates.check', {});
    if (mine !== seq) return;
    useUpdates.setState(r.ok ? { checking: false, results: r.updates } : { checking: false, error: r.message });
  } catch (e) {
    if (mine === seq) useUpdates.setState({ checking: false, error: errorText(e) });
  }
}

export function closeUpdates(): void {
  seq++;
  const { review } = useUpdates.getState();
  if (review)
    void getApi()
      .invoke('updates.cancel', { token: review.token })
      .catch(() => undefined);
  useUpdates.setState({ open: false, review: null, staging: null });
}

/** Stages and tries the update of `id`, then shows what it changes. */
export async function reviewUpdate(id: string): Promise<void> {
  const mine = ++seq;
  useUpdates.setState({ staging: id, error: null });
  try {
    const r = await getApi().invoke('updates.preview', { id });
    if (mine !== seq) {
      if (r.ok)
        void getApi()
          .invoke('updates.cancel', { token: r.token })
          .catch(() => undefined);
      return;
    }
    useUpdates.setState(
      r.ok
        ? { staging: null, review: { token: r.token, preview: r.preview, committing: false, error: null } }
        : { staging: null, error: `${id}: ${r.message}` },
    );
  } catch (e) {
    if (mine === seq) useUpdates.setState({ staging: null, error: errorText(e) });
  }
}

/** Back from a review to the list; the staged update is dropped. */
export function leaveReview(): void {
  const { review } = useUpdates.getState();
  if (review)
    void getApi()
      .invoke('updates.cancel', { token: review.token })
      .catch(() => undefined);
  useUpdates.setState({ review: null });
}

export async function commitUpdate(): Promise<void> {
  const review = useUpdates.getState().review;
  if (!review || review.committing) return;
  useUpdates.setState({ review: { ...review, committing: true, error: null } });
  let error: string;
  try {
    const r = await getApi().invoke('updates.commit', { token: review.token });
    if (r.ok) {
      const { preview } = review;
      toastInfo(`Updated ${preview.name} to ${r.version}; ${preview.from} is kept for Roll back`);
      scheduleRefresh();
      detailChanged(preview.id);
      useUpdates.setState((s) => ({
        review: null,
        results:
          s.results?.map((u) => (u.id === preview.id ? { ...u, current: r.version, status: 'current' } : u)) ?? null,
      }));
      return;
    }
    error = r.message;
  } catch (e) {
    error = errorText(e);
  }
  const now = useUpdates.getState().review;
  if (now) useUpdates.setState({ review: { ...now, committing: false, error } });
}

export async function rollbackPlugin(id: string, name: string, to: string): Promise<void> {
  const ok = await runOp(
    () => getApi().invoke('plugins.rollback', { id }),
    `Roll back ${name}`,
    `Rolled ${name} back to ${to}`,
  );
  if (ok) {
    scheduleRefresh();
    detailChanged(id);
  }
}
