/**
 * The catalog view: an MCP registry searched by name (`catalog.search`, a page at a time), and an
 * entry installed through the import preview (`catalog.preview` → the install dialog's import
 * step → `import.commit`). Which registry it reads is a setting (`catalog.setUrl`).
 */
import { create } from 'zustand';
import type { CatalogEntryView } from '../../../shared/catalog';
import { getApi } from '../api';
import { showCatalogPreview } from './install';
import { errorText } from './toasts';

interface CatalogState {
  open: boolean;
  query: string;
  /** The query the entries answer (the field may have moved on). */
  shown: string | null;
  entries: CatalogEntryView[];
  nextCursor: string | null;
  url: string | null;
  defaultUrl: string | null;
  loading: boolean;
  error: string | null;
  /** The entry being previewed (its Install button shows progress). */
  opening: string | null;
}

const initial = {
  query: '',
  shown: null,
  entries: [],
  nextCursor: null,
  loading: false,
  error: null,
  opening: null,
};

export const useCatalog = create<CatalogState>()(() => ({ open: false, url: null, defaultUrl: null, ...initial }));

let seq = 0;

export function openCatalog(): void {
  useCatalog.setState({ open: true, ...initial });
  void getApi()
    .invoke('catalog.settings', {})
    .then((s) => useCatalog.setState({ url: s.url, defaultUrl: s.defaultUrl }))
    .catch(() => undefined);
  void searchCatalog('');
}

export function closeCatalog(): void {
  seq++;
  useCatalog.setState({ open: false });
}

export function setCatalogQuery(query: string): void {
  useCatalog.setState({ query });
}

/** The first page for `query` (replacing what is shown); `more` appends the next page. */
export async function searchCatalog(query: string, more = false): Promise<void> {
  const mine = ++seq;
  const cursor = more ? (useCatalog.getState().nextCursor ?? undefined) : undefined;
  useCatalog.setState({ loading: true, error: null });
  try {
    const r = await getApi().invoke('catalog.search', { query, ...(cursor ? { cursor } : {}) });
    if (mine !== seq) return;
    if (!r.ok)
      return useCatalog.setState({ loading: false, error: r.message, ...(more ? {} : { entries: [], shown: query }) });
    useCatalog.setState((s) => ({
      loading: false,
      shown: query,
      url: r.page.url,
      entries: more ? [...s.entries, ...r.page.entries] : r.page.entries,
      nextCursor: r.page.nextCursor,
    }));
  } catch (e) {
    if (mine === seq) useCatalog.setState({ loading: false, error: errorText(e) });
  }
}

/** Previews an entry as an import; the catalog closes and the install dialog takes over. */
export async function installFromCatalog(entry: CatalogEntryView): Promise<void> {
  useCatalog.setState({ opening: entry.name, error: null });
  try {
    const r = await getApi().invoke('catalog.preview', { name: entry.name, version: entry.version });
    if (!useCatalog.getState().open) {
      if (r.ok)
        void getApi()
          .invoke('install.cancel', { token: r.token })
          .catch(() => undefined);
      return;
    }
    if (!r.ok) return useCatalog.setState({ opening: null, error: `${entry.title}: ${r.message}` });
    useCatalog.setState({ open: false, opening: null });
    showCatalogPreview(r.token, r.preview);
  } catch (e) {
    useCatalog.setState({ opening: null, error: errorText(e) });
  }
}

/** Changes the registry the catalog reads (null: the official one) and searches it again. */
export async function setCatalogUrl(url: string | null): Promise<string | null> {
  try {
    const r = await getApi().invoke('catalog.setUrl', { url });
    if (!r.ok) return r.message;
    const s = await getApi().invoke('catalog.settings', {});
    useCatalog.setState({ url: s.url, defaultUrl: s.defaultUrl });
    void searchCatalog(useCatalog.getState().query);
    return null;
  } catch (e) {
    return errorText(e);
  }
}
