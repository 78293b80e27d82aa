/**
 * The folders and files a plugin is given in its arguments and environment, each a grant the
 * person decides on: granted or not, read-write or read-only, with where it was found (and the
 * file it is for, when the grant is the folder holding it). Granted, it is shown in the plugin's
 * sandbox at the same path; not granted, it does not exist there.
 */
import type { JSX } from 'react';
import type { FolderChoice } from '../../stores/install';
import { setFolderChoice } from '../../stores/install-choices';

export function PathGrants({ folders, server }: { folders: FolderChoice[]; server?: string }): JSX.Element | null {
  if (folders.length === 0) return null;
  return (
    <ul className="space-y-1.5" aria-label="Folders and files it is given">
      {folders.map((f) => (
        <li key={f.path} className="flex items-start gap-2 text-xs" data-grant-path={f.path}>
          <input
            type="checkbox"
            checked={f.granted}
            onChange={() => setFolderChoice(f.path, { granted: !f.granted }, server)}
            aria-label={`Grant ${f.path}`}
            className="mt-0.5 h-3.5 w-3.5 accent-[var(--accent)]"
          />
          <span className="min-w-0 flex-1">
            <code className="font-mono break-all text-fg">{f.path}</code>
            <span className="block text-[11px] text-fg-subtle">
              {f.kind === 'file' ? 'file' : 'folder'} from {f.from}
              {f.named ? <> — for {f.named}, which it writes there</> : null}
              {f.note ? <span className="text-warn"> · {f.note}</span> : null}
            </span>
          </span>
          <select
            value={f.write ? 'write' : 'read'}
            disabled={!f.granted}
            onChange={(e) => setFolderChoice(f.path, { write: e.target.value === 'write' }, server)}
            aria-label={`Access to ${f.path}`}
            className="shrink-0 rounded border border-line bg-bg px-1 py-0.5 text-[11px] text-fg disabled:opacity-50"
          >
            <option value="write">read-write</option>
            <option value="read">read-only</option>
          </select>
        </li>
      ))}
    </ul>
  );
}
