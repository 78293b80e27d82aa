/**
 * The folders and files a plugin is granted by path, whatever it requested: each shown in its
 * sandbox at the same path, read-only or read-write, with Revoke; and a path to grant another
 * (a G-Assist or Mehrhof plugin cannot ask for one in its manifest).
 */
import { useId, useState, type FormEvent, type JSX } from 'react';
import type { PluginDetail } from '../../../../shared/contract';
import { Button } from '../../components/Button';
import { setFolderGranted } from '../../stores/plugin-detail';

export function FolderGrants({ detail }: { detail: PluginDetail }): JSX.Element {
  const [path, setPath] = useState('');
  const [write, setWrite] = useState(false);
  const inputId = useId();
  const absolute = path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (!absolute) return;
    void setFolderGranted(detail.id, { path: path.trim(), write }, true).then((ok) => ok && setPath(''));
  };
  return (
    <section className="mt-3" aria-labelledby={`${inputId}-title`}>
      <h4 id={`${inputId}-title`} className="mb-1 text-[11px] font-semibold tracking-wide text-fg-subtle uppercase">
        Folders and files
      </h4>
      {detail.folders.length === 0 ? (
        <p className="text-[11.5px] text-fg-subtle">None granted by path.</p>
      ) : (
        <ul className="divide-y divide-line rounded-md border border-line">
          {detail.folders.map((f) => (
            <li key={f.path} className="flex items-center gap-2 px-2.5 py-1.5 text-xs">
              <code className="min-w-0 flex-1 font-mono break-all text-fg">{f.path}</code>
              <span className="shrink-0 text-[11px] text-fg-subtle">{f.write ? 'read-write' : 'read-only'}</span>
              <Button size="sm" onClick={() => void setFolderGranted(detail.id, f, false)}>
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} className="mt-2 flex flex-wrap items-center gap-2 text-xs">
        <label htmlFor={inputId} className="sr-only">
          A folder or file to grant
        </label>
        <input
          id={inputId}
          value={path}
          onChange={(e) => setPath(e.target.value)}
          placeholder="/path/to/a/folder"
          className="min-w-0 flex-1 rounded border border-line bg-bg px-2 py-1 font-mono text-[11.5px] text-fg"
        />
        <label className="inline-flex items-center gap-1 text-fg-muted">
          <input
            type="checkbox"
            checked={write}
            onChange={(e) => setWrite(e.target.checked)}
            className="h-3 w-3 accent-[var(--accent)]"
          />
          read-write
        </label>
        <Button size="sm" type="submit" disabled={!absolute}>
          Grant
        </Button>
      </form>
    </section>
  );
}
