/**
 * A folder or file picker for path settings, browsing this computer's folders through Plugboard
 * (`app.listFolder`): a browser cannot hand the web UI a path, and one picker serves the desktop
 * app and the web UI alike. Folders open with a click or Enter; in a file picker a file is chosen
 * with a click and Choose, or a double click. The path can be typed (Enter goes there), ArrowUp and
 * ArrowDown move through the entries, and Backspace goes up one folder.
 */
import { useCallback, useEffect, useRef, useState, type JSX, type KeyboardEvent, type ReactNode } from 'react';
import type { FolderListing } from '../../../shared/views';
import { getApi } from '../api';
import { errorText } from '../stores/toasts';
import { Button, IconButton } from './Button';
import { Dialog } from './Dialog';
import { Icon } from './Icon';
import { Spinner } from './Spinner';

export type PathKind = 'directory' | 'file';

function joined(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

/** The folder to open first: the value's folder (a file's own folder), else home. */
function startOf(value: string | undefined, kind: PathKind): string | undefined {
  const v = value?.trim();
  if (!v || !(v.startsWith('/') || v.startsWith('~'))) return undefined;
  return kind === 'file' ? v.replace(/\/[^/]*$/, '') || '/' : v;
}

export function PathPicker({
  kind,
  title,
  value,
  onPick,
  onClose,
}: {
  kind: PathKind;
  /** What the path is for (the setting's title). */
  title: string;
  value?: string;
  onPick: (path: string) => void;
  onClose: () => void;
}): JSX.Element {
  const [listing, setListing] = useState<FolderListing | null>(null);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(true);
  const [hidden, setHidden] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const seq = useRef(0);

  /** Lists `to` (home where absent); answers why it could not, or null. */
  const go = useCallback(
    async (to: string | undefined, showHidden = hidden): Promise<string | null> => {
      const mine = ++seq.current;
      setBusy(true);
      let next: FolderListing | null = null;
      let why: string | null = null;
      try {
        const r = await getApi().invoke('app.listFolder', {
          ...(to !== undefined ? { path: to } : {}),
          hidden: showHidden,
        });
        if (r.ok) next = r.listing;
        else why = r.message;
      } catch (e) {
        why = errorText(e);
      }
      if (mine !== seq.current) return null;
      setBusy(false);
      setError(why);
      if (next) {
        setListing(next);
        setTyped(next.path);
        setChosen(null);
      }
      return why;
    },
    [hidden],
  );

  // Opens at the value's folder; where that cannot be read, at home, saying why.
  useEffect(() => {
    const start = startOf(value, kind);
    void go(start).then(async (why) => {
      if (why === null || start === undefined) return;
      if ((await go(undefined)) === null) setError(`${why}: showing your home folder`);
    });
  }, []);

  const here = listing?.path ?? '';
  const pick = (p: string): void => {
    onPick(p);
    onClose();
  };
  const up = (): void => {
    if (listing?.parent) void go(listing.parent);
  };
  const onListKey = (e: KeyboardEvent<HTMLUListElement>): void => {
    const buttons = Array.from(list.current?.querySelectorAll<HTMLButtonElement>('button:not([disabled])') ?? []);
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = e.key === 'ArrowDown' ? Math.min(buttons.length - 1, at + 1) : Math.max(0, at - 1);
      buttons[next]?.focus();
    } else if (e.key === 'Backspace') {
      e.preventDefault();
      up();
    }
  };

  const entries = listing?.entries ?? [];
  const target = kind === 'directory' ? here : chosen;
  const name = (p: string): string => p.split('/').filter(Boolean).pop() ?? '/';
  return (
    <Dialog
      title={`Choose a ${kind === 'directory' ? 'folder' : 'file'} for ${title}`}
      onClose={onClose}
      width="w-[520px]"
      height="h-[min(560px,calc(100vh-48px))]"
      footer={
        <>
          <label className="mr-auto flex items-center gap-1.5 text-xs text-fg-muted">
            <input
              type="checkbox"
              checked={hidden}
              onChange={(e) => {
                setHidden(e.target.checked);
                void go(here || undefined, e.target.checked);
              }}
              className="h-3.5 w-3.5 accent-[var(--accent)]"
            />
            Show hidden
          </label>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={!target || busy} onClick={() => target && pick(target)}>
            {target ? `Choose ${name(target)}` : kind === 'directory' ? 'Choose' : 'Choose a file'}
          </Button>
        </>
      }
    >
      <div className="flex h-full min-h-0 flex-col gap-2">
        <div className="flex items-center gap-1">
          <IconButton icon="arrowUp" label="Up one folder" disabled={!listing?.parent} onClick={up} />
          <Button variant="ghost" size="md" disabled={!listing} onClick={() => listing && void go(listing.home)}>
            Home
          </Button>
          <input
            aria-label="Folder path"
            data-autofocus
            value={typed}
            spellCheck={false}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void go(typed);
              }
            }}
            className="min-w-0 flex-1 rounded-md border border-line-strong bg-bg px-2 py-1 font-mono text-xs text-fg focus-visible:border-accent"
          />
          {busy && <Spinner size={13} className="shrink-0 text-fg-muted" />}
        </div>
        {error && (
          <p role="alert" className="rounded-md border border-bad/30 bg-bad-soft px-2 py-1 text-xs break-words text-fg">
            {error}
          </p>
        )}
        <ul
          ref={list}
          aria-label={`In ${here || 'the folder'}`}
          onKeyDown={onListKey}
          className="min-h-0 flex-1 overflow-y-auto rounded-md border border-line"
        >
          {listing && entries.length === 0 && (
            <li className="px-2 py-1.5 text-xs text-fg-subtle">
              {kind === 'directory' ? 'No folders in here.' : 'Nothing in here.'}
            </li>
          )}
          {entries.map((e) => {
            const full = joined(here, e.name);
            const folder = e.kind === 'directory';
            const selected = chosen === full;
            return (
              <li key={e.name}>
                <button
                  type="button"
                  data-entry={e.kind}
                  // Files are shown for orientation in a folder picker, not chosen there.
                  disabled={!folder && kind === 'directory'}
                  aria-pressed={folder ? undefined : selected}
                  onClick={() => (folder ? void go(full) : setChosen(full))}
                  onDoubleClick={() => !folder && pick(full)}
                  className={`flex w-full items-center gap-2 px-2 py-1 text-left text-[13px] hover:bg-muted focus-visible:bg-muted disabled:text-fg-subtle disabled:hover:bg-transparent ${selected ? 'bg-accent-soft text-fg' : 'text-fg'}`}
                >
                  <Icon
                    name={folder ? 'folder' : 'file'}
                    size={14}
                    className={`shrink-0 ${folder ? 'text-accent' : 'text-fg-muted'}`}
                  />
                  <span className="min-w-0 truncate">{e.name}</span>
                  {folder && <Icon name="chevronRight" size={12} className="ml-auto shrink-0 text-fg-subtle" />}
                </button>
              </li>
            );
          })}
          {listing && listing.more > 0 && (
            <li className="px-2 py-1.5 text-xs text-fg-subtle">and {listing.more} more: type the path to go further</li>
          )}
        </ul>
      </div>
    </Dialog>
  );
}

/** "Browse…" beside a path field: opens the picker, and hands the chosen path to `onPick`. */
export function BrowseButton({
  kind,
  title,
  value,
  onPick,
}: {
  kind: PathKind;
  title: string;
  value?: string;
  onPick: (path: string) => void;
}): JSX.Element {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="md" onClick={() => setOpen(true)} aria-label={`Browse for ${title}`} title={`Browse for ${title}`}>
        Browse…
      </Button>
      {open && (
        <PathPicker
          kind={kind}
          title={title}
          {...(value !== undefined ? { value } : {})}
          onPick={onPick}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

/**
 * A path setting's field with Browse… beside it. `value` is the field's text (one path per line
 * where the setting takes several: the chosen path becomes the next line); the picker opens at the
 * last path given, else at `fallback` (the default).
 */
export function WithBrowse({
  kind,
  title,
  value,
  fallback,
  multiple = false,
  onChange,
  children,
}: {
  kind: PathKind;
  title: string;
  value: string;
  fallback?: string | undefined;
  multiple?: boolean;
  onChange: (text: string) => void;
  children: ReactNode;
}): JSX.Element {
  const lines = value.split('\n').filter((l) => l.trim() !== '');
  const start = (multiple ? lines.at(-1) : value.trim()) || fallback;
  return (
    <div className="flex items-start gap-1.5">
      <div className="min-w-0 flex-1">{children}</div>
      <BrowseButton
        kind={kind}
        title={title}
        {...(start ? { value: start } : {})}
        onPick={(p) => onChange(multiple ? [...lines, p].join('\n') : p)}
      />
    </div>
  );
}
