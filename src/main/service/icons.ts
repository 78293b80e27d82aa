/**
 * Icons servers give their servers, tools and prompts (SEP-973), made safe to show: the screen
 * only ever gets `data:` URIs of picture types, at most MAX_ICON_BYTES each, whose bytes are what
 * their type says. A `data:` URI given by the server is checked and kept; an `http(s)` one is
 * fetched here, in the main process, only when the person granted the plugin `net` (its server
 * could reach that address itself; without the grant, it could not), with a deadline, no
 * redirects, a cap on the bytes read and the same checks. The renderer never fetches an icon.
 *
 * Fetching is not awaited by the views: the first view of a plugin shows no icon and starts the
 * fetch; once it lands, `onDidResolve` fires with the plugin's id so the screen reads its views
 * again. A failed fetch is remembered as failed (no icon) until the person's decisions about the
 * plugin change (a `net` grant, say).
 */
import { ICON_TYPES, MAX_ICON_BYTES, type IconSpec, type IconView } from '../../shared/apps';
import { Disposable, Emitter } from '../../shared/lifecycle';

const FETCH_MS = 5000;

type Kept = { state: 'ok'; uri: string } | { state: 'failed'; why: string } | { state: 'fetching' };

export interface IconResolverOptions {
  /** Whether the plugin was granted `net`. */
  netGranted(pluginId: string): boolean;
  /** A failed fetch, for the plugin's log. */
  warn(pluginId: string, message: string): void;
  fetch?: typeof fetch;
}

export class IconResolver extends Disposable {
  /** By plugin, then by `src`. */
  private readonly kept = new Map<string, Map<string, Kept>>();
  private readonly _onDidResolve = this._register(new Emitter<string>());
  readonly onDidResolve = this._onDidResolve.event;

  constructor(private readonly o: IconResolverOptions) {
    super();
  }

  /** The plugin's decisions changed (a `net` grant, perhaps): what failed may be fetched again. */
  retryFailed(pluginId: string): void {
    const mine = this.kept.get(pluginId);
    for (const [src, k] of mine ?? []) if (k.state === 'failed') mine?.delete(src);
  }

  /** The icon to show for light and dark backgrounds, if one of `icons` is usable now. */
  view(pluginId: string, icons: readonly IconSpec[] | undefined): IconView | undefined {
    if (!icons?.length) return undefined;
    const light = this.pick(pluginId, icons, 'light');
    const dark = this.pick(pluginId, icons, 'dark');
    if (!light && !dark) return undefined;
    return { light: (light ?? dark) as string, dark: (dark ?? light) as string };
  }

  /** The first usable icon for the theme (one made for it, else one for any theme). */
  private pick(pluginId: string, icons: readonly IconSpec[], theme: 'light' | 'dark'): string | undefined {
    const ordered = [...icons.filter((i) => i.theme === theme), ...icons.filter((i) => !i.theme)];
    for (const icon of ordered) {
      const uri = this.usable(pluginId, icon);
      if (uri) return uri;
    }
    return undefined;
  }

  private usable(pluginId: string, icon: IconSpec): string | undefined {
    if (icon.src.startsWith('data:')) {
      const r = checkDataUri(icon.src);
      return r.ok ? r.uri : undefined;
    }
    let url: URL;
    try {
      url = new URL(icon.src);
    } catch {
      return undefined;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    if (!this.o.netGranted(pluginId)) return undefined;
    const mine = this.kept.get(pluginId) ?? new Map<string, Kept>();
    this.kept.set(pluginId, mine);
    const k = mine.get(icon.src);
    if (k?.state === 'ok') return k.uri;
    if (!k) {
      mine.set(icon.src, { state: 'fetching' });
      void fetchIcon(url, this.o.fetch ?? fetch).then((r) => {
        if (this.isDisposed) return;
        mine.set(icon.src, r.ok ? { state: 'ok', uri: r.uri } : { state: 'failed', why: r.why });
        if (r.ok) this._onDidResolve.fire(pluginId);
        else this.o.warn(pluginId, `its icon ${url.href} is not shown: ${r.why}`);
      });
    }
    return undefined;
  }
}

type Checked = { ok: true; uri: string } | { ok: false; why: string };

/** A `data:` URI of a picture type, within the size cap, whose bytes are that type. */
export function checkDataUri(src: string): Checked {
  const m = /^data:([a-z0-9.+/-]+)((?:;[a-z0-9=.-]+)*?)(;base64)?,(.*)$/is.exec(src);
  if (!m) return { ok: false, why: 'not a data: URI' };
  const type = (m[1] as string).toLowerCase();
  let bytes: Buffer;
  try {
    bytes = m[3] ? Buffer.from(m[4] as string, 'base64') : Buffer.from(decodeURIComponent(m[4] as string), 'utf8');
  } catch {
    return { ok: false, why: 'its data is not valid percent-encoding' };
  }
  return checkBytes(type, bytes);
}

/** The bytes are within the cap and what `type` (a picture type) says they are: a `data:` URI of them. */
export function checkBytes(type: string, bytes: Buffer): Checked {
  if (!(ICON_TYPES as readonly string[]).includes(type))
    return { ok: false, why: `${type || 'no type'} is not a picture type` };
  if (bytes.length === 0) return { ok: false, why: 'it is empty' };
  if (bytes.length > MAX_ICON_BYTES) return { ok: false, why: `it is over ${MAX_ICON_BYTES / 1024} KiB` };
  if (sniff(bytes) !== type) return { ok: false, why: `its bytes are not ${type}` };
  return { ok: true, uri: `data:${type};base64,${bytes.toString('base64')}` };
}

/** The picture type the bytes begin like, if any. */
function sniff(b: Buffer): string | undefined {
  const starts = (...xs: number[]): boolean => xs.every((x, i) => b[i] === x);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a')
    return 'image/gif';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  // SVG is text: an optional BOM, XML declaration, comments or doctype, then the svg element.
  const head = b
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  if (/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype svg[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(head))
    return 'image/svg+xml';
  return undefined;
}

/** Fetches an icon with a deadline, no redirects and a cap on the bytes read. */
async function fetchIcon(
  url: URL,
  doFetch: typeof fetch,
): Promise<{ ok: true; uri: string } | { ok: false; why: string }> {
  const signal = AbortSignal.timeout(FETCH_MS);
  let res: Response;
  try {
    res = await doFetch(url, {
      redirect: 'error',
      signal,
      credentials: 'omit',
      headers: { accept: ICON_TYPES.join(', ') },
    });
  } catch (e) {
    return { ok: false, why: signal.aborted ? `no answer in ${FETCH_MS / 1000} s` : (e as Error).message };
  }
  if (!res.ok) return { ok: false, why: `the server answered ${res.status}` };
  const type = (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!(ICON_TYPES as readonly string[]).includes(type)) {
    await res.body?.cancel();
    return { ok: false, why: `it is ${type || 'of no type'}, not a picture type` };
  }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_ICON_BYTES) {
    await res.body?.cancel();
    return { ok: false, why: `it is over ${MAX_ICON_BYTES / 1024} KiB` };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body ?? []) {
      size += (chunk as Uint8Array).length;
      // Leaving the loop cancels the rest of the body.
      if (size > MAX_ICON_BYTES) return { ok: false, why: `it is over ${MAX_ICON_BYTES / 1024} KiB` };
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
  } catch (e) {
    return { ok: false, why: (e as Error).message };
  }
  const r = checkBytes(type, Buffer.concat(chunks));
  return r.ok ? r : { ok: false, why: r.why };
}
