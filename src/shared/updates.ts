/**
 * Updates as the screen and the CLI see them: which installed plugins have another version, what
 * an update would change in their tools (added, removed, and each changed description or schema
 * as a line diff), and the version kept for a one-step rollback. Types only.
 */
import type { ToolChangesView } from './tool-changes';
import type { InstallTrialView, PackageView } from './views';

export type { DiffLine, PreviousVersionView, ToolChangesView, ToolChangeView } from './tool-changes';

/** Where an installed plugin's next version comes from. */
export type UpdateOrigin = 'catalog' | 'npm' | 'pypi' | 'oci' | 'source';

export interface UpdateCheckView {
  id: string;
  name: string;
  current: string;
  /** The version the origin offers; null when it could not be asked (then `message` says why). */
  latest: string | null;
  /** `available`: the origin offers another version than the installed one. */
  status: 'current' | 'available' | 'unknown';
  origin: UpdateOrigin | null;
  /** Where the next version comes from, in words (`npm @scope/pkg`, `the folder /x/y`). */
  from: string;
  message?: string;
}

/** An update staged and tried, waiting for the person's yes (`updates.commit`). */
export interface UpdatePreviewView {
  id: string;
  name: string;
  from: string;
  to: string;
  origin: UpdateOrigin;
  /** The command the new version runs (secrets hidden), or the remote server's URL. */
  command: string[];
  /** The package its runner fetches, installed into the staged copy: the version and hash it will run. */
  package: PackageView | null;
  trial: InstallTrialView;
  changes: ToolChangesView;
  /** Capabilities the new version requests that were not granted: they wait for the person. */
  newlyRequested: string[];
  warnings: string[];
}
