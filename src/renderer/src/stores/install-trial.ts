/**
 * The install preview's trial, tried again (`install.try`) with what the person has filled in and
 * chosen since: the settings form's values, the capabilities and the folders ticked. The staged
 * copy is the same one "Install" installs; only the trial's answer (and the tools a server
 * announced in it) change in the preview.
 */
import { getApi } from '../api';
import { chosenFolders, phase, setPhase } from './install';
import { installSettingsFor } from './install-settings';
import { errorText } from './toasts';

export async function tryInstallAgain(): Promise<void> {
  const p = phase();
  if (p.step !== 'preview' || p.trying || p.committing) return;
  setPhase({ ...p, trying: true, error: null });
  let error: string | null = null;
  let answer: { command: string[]; trial: typeof p.preview.trial; tools: typeof p.preview.tools | null } | null = null;
  try {
    const settings = installSettingsFor(p.token, p.preview);
    const r = await getApi().invoke('install.try', {
      token: p.token,
      grants: p.grants,
      folders: chosenFolders(p.folders),
      ...(settings ? { settings } : {}),
    });
    if (r.ok) answer = r;
    else error = r.message;
  } catch (e) {
    error = errorText(e);
  }
  const now = phase();
  // The dialog may have been closed, or another package previewed, meanwhile.
  if (now.step !== 'preview' || now.token !== p.token) return;
  const preview = answer
    ? { ...now.preview, command: answer.command, trial: answer.trial, tools: answer.tools ?? now.preview.tools }
    : now.preview;
  setPhase({ ...now, preview, trying: false, error });
}
