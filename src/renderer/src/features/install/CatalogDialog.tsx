/**
 * Browse catalog: the servers of an MCP registry, searched by name, each with what it offers to
 * run (npm, PyPI, Docker, remote; what Plugboard cannot install here is marked) and an Install
 * button that opens the same preview as an import, pinned to the entry's version. The registry it
 * reads is shown, and can be changed (a company's own registry, say).
 */
import { useEffect, useRef, useState, type JSX } from 'react';
import type { CatalogEntryView } from '../../../../shared/catalog';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import {
  closeCatalog,
  installFromCatalog,
  searchCatalog,
  setCatalogQuery,
  setCatalogUrl,
  useCatalog,
} from '../../stores/catalog';

const KIND = { npm: 'npm', pypi: 'PyPI', oci: 'Docker', remote: 'remote' } as Record<string, string>;

function Entry({ e }: { e: CatalogEntryView }): JSX.Element {
  const opening = useCatalog((s) => s.opening);
  const installable = e.packages.some((p) => p.installable);
  return (
    <li className="flex gap-3 border-b border-line px-1 py-2.5 last:border-b-0" data-entry={e.name}>
      <span
        className="mt-0.5 grid h-8 w-8 shrink-0 place-items-center rounded-lg border border-line bg-subtle text-fg-muted"
        aria-hidden="true"
      >
        <Icon name="box" size={16} />
      </span>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2">
          <span className="text-[13px] font-semibold text-fg">{e.title}</span>
          <span className="text-xs text-fg-muted tabular-nums">{e.version}</span>
          {e.status && e.status !== 'active' && <span className="text-xs text-warn">{e.status}</span>}
        </p>
        <p className="truncate font-mono text-[11px] text-fg-subtle" title={e.name}>
          {e.name}
        </p>
        {e.description && <p className="mt-0.5 text-xs text-fg-muted">{e.description}</p>}
        <p className="mt-1 flex flex-wrap gap-1">
          {e.packages.map((p, i) => (
            <span
              key={i}
              title={p.problem ?? `${p.identifier}${p.version ? ` ${p.version}` : ''}`}
              className={`rounded px-1.5 py-px text-[11px] ${p.installable ? 'bg-muted text-fg-muted' : 'border border-dashed border-line-strong text-fg-subtle'}`}
            >
              {KIND[p.kind] ?? p.kind}
              {!p.installable && <span className="sr-only">: {p.problem}</span>}
              {!p.installable && <span aria-hidden="true"> · not here</span>}
            </span>
          ))}
        </p>
      </div>
      <div className="shrink-0 self-center">
        {e.installed ? (
          <span className="flex items-center gap-1 text-xs text-ok">
            <Icon name="check" size={13} /> Installed {e.installed.version !== e.version ? e.installed.version : ''}
          </span>
        ) : (
          <Button
            size="sm"
            variant="secondary"
            icon={opening === e.name ? undefined : 'download'}
            disabled={!installable || opening !== null}
            aria-label={`Install ${e.title}`}
            title={installable ? undefined : 'Nothing of this entry can be installed here'}
            onClick={() => void installFromCatalog(e)}
          >
            {opening === e.name && <Spinner />}
            Install…
          </Button>
        )}
      </div>
    </li>
  );
}

function RegistryUrl(): JSX.Element {
  const url = useCatalog((s) => s.url);
  const defaultUrl = useCatalog((s) => s.defaultUrl);
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (editing === null)
    return (
      <p className="flex items-center gap-1.5 text-[11px] text-fg-subtle">
        <span className="min-w-0 truncate">
          From <span className="font-mono">{url ?? '…'}</span>
        </span>
        <button type="button" className="text-accent hover:underline" onClick={() => setEditing(url ?? '')}>
          Change
        </button>
      </p>
    );
  const save = async (value: string | null): Promise<void> => {
    const why = await setCatalogUrl(value);
    if (why) setError(why);
    else {
      setEditing(null);
      setError(null);
    }
  };
  return (
    <form
      className="space-y-1 text-[11px]"
      onSubmit={(ev) => {
        ev.preventDefault();
        void save(editing);
      }}
    >
      <label className="flex items-center gap-1.5">
        <span className="text-fg-subtle">Registry</span>
        <input
          value={editing}
          onChange={(ev) => setEditing(ev.target.value)}
          aria-label="Registry URL"
          className="h-6 min-w-0 flex-1 rounded border border-line-strong bg-bg px-1.5 font-mono outline-none focus:border-accent"
        />
        <Button size="sm" type="submit">
          Save
        </Button>
        {defaultUrl && url !== defaultUrl && (
          <Button size="sm" variant="ghost" onClick={() => void save(null)}>
            Use the official one
          </Button>
        )}
        <Button size="sm" variant="ghost" onClick={() => setEditing(null)}>
          Cancel
        </Button>
      </label>
      {error && (
        <p role="alert" className="text-bad">
          {error}
        </p>
      )}
    </form>
  );
}

export function CatalogDialog(): JSX.Element | null {
  const open = useCatalog((s) => s.open);
  const query = useCatalog((s) => s.query);
  const shown = useCatalog((s) => s.shown);
  const entries = useCatalog((s) => s.entries);
  const loading = useCatalog((s) => s.loading);
  const error = useCatalog((s) => s.error);
  const nextCursor = useCatalog((s) => s.nextCursor);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  if (!open) return null;
  const onType = (q: string): void => {
    setCatalogQuery(q);
    if (timer.current) clearTimeout(timer.current);
    // Searching as one types, a moment after the last key, so a word is one request.
    timer.current = setTimeout(() => void searchCatalog(q), 300);
  };
  return (
    <Dialog
      title="Browse the catalog"
      onClose={closeCatalog}
      width="w-[640px]"
      footer={<Button onClick={closeCatalog}>Close</Button>}
    >
      <div className="space-y-2">
        <label className="flex items-center gap-1.5 rounded-md border border-line-strong bg-bg px-2 focus-within:border-accent">
          <Icon name="search" size={14} className="text-fg-subtle" />
          <input
            data-autofocus
            type="search"
            value={query}
            onChange={(ev) => onType(ev.target.value)}
            onKeyDown={(ev) => {
              if (ev.key === 'Enter') {
                if (timer.current) clearTimeout(timer.current);
                void searchCatalog(query);
              }
            }}
            aria-label="Search the catalog"
            placeholder="Search MCP servers by name"
            className="h-8 min-w-0 flex-1 bg-transparent text-[13px] outline-none placeholder:text-fg-subtle"
          />
          {loading && <Spinner className="text-fg-subtle" />}
        </label>
        <RegistryUrl />
        {error && (
          <div
            role="alert"
            className="flex gap-2 rounded-md border border-bad/30 bg-bad-soft px-3 py-2 text-xs text-fg"
          >
            <Icon name="alert" size={14} className="mt-0.5 shrink-0 text-bad" />
            <p className="min-w-0 break-words">{error}</p>
          </div>
        )}
        <div className="max-h-[52vh] min-h-[160px] overflow-y-auto" aria-busy={loading}>
          {shown !== null && entries.length === 0 && !loading && !error && (
            <p className="p-3 text-xs text-fg-muted">
              {shown ? `No server’s name matches “${shown}”.` : 'The registry lists no servers.'}
            </p>
          )}
          <ul aria-label="Catalog entries">
            {entries.map((e) => (
              <Entry key={`${e.name}@${e.version}`} e={e} />
            ))}
          </ul>
          {nextCursor && (
            <div className="py-2 text-center">
              <Button
                size="sm"
                variant="ghost"
                disabled={loading}
                onClick={() => void searchCatalog(shown ?? '', true)}
              >
                More
              </Button>
            </div>
          )}
        </div>
      </div>
    </Dialog>
  );
}
