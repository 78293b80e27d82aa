/**
 * `plugboard plugins signin <id>` and `signout <id>`: OAuth sign-in to a remote MCP server from a
 * terminal. The authorization URL is printed, and opened in the browser where there is one (not
 * with --no-browser, nor on a Linux without a display: then the person opens it wherever they
 * like, on this computer, since the answer comes back to a port on 127.0.0.1). The command waits
 * until the browser comes back, up to five minutes; Ctrl-C gives up. The window's commands do it
 * (`plugins.signIn`, which answers with the page's address; the end is announced as a change of
 * the plugin, whose detail then says how it went).
 */
import { spawn } from 'node:child_process';
import type { Backend } from '../../service';
import { EXIT_FAILED, EXIT_OK, jsonLine, type Out } from '../io';

/** Whether a browser can be opened here: not on a Linux or BSD session without a display. */
export function hasDisplay(env: NodeJS.ProcessEnv = process.env, platform = process.platform): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
        : ['xdg-open', [url]];
  const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

export async function signInCommand(
  backend: Backend,
  id: string,
  opts: { browser: boolean; json: boolean },
  out: Out,
): Promise<number> {
  // Each change of this plugin may be the sign-in's end (its detail then says how it went);
  // another change meanwhile (its icons, say) leaves it pending, and the wait goes on.
  // A change that comes while the detail is being read is kept for the next look, not lost.
  let changed = false;
  let wake: () => void = () => undefined;
  let gaveUp = false;
  const poke = (): void => {
    changed = true;
    wake();
  };
  const sub = backend.onDidEvent((e) => {
    if (e.name === 'plugins.changed' && e.payload.id === id && e.payload.reason !== 'sign-in started') poke();
  });
  const stop = (): void => {
    gaveUp = true;
    poke();
  };
  process.once('SIGINT', stop);
  try {
    const r = await backend.request('plugins.signIn', { id });
    if (!r.ok) return fail(out, opts.json, r.message, r.code);
    // A server that needs no browser (tokens still good, a client-credentials grant) is done at once.
    if (!r.url) return done(out, opts.json, id, r.detail);
    const open = opts.browser && hasDisplay();
    if (opts.json) jsonLine(out, { url: r.url, opened: open });
    else
      out.stdout(
        `${open ? 'Opening the sign-in page in your browser' : 'Open this address in a browser on this computer to sign in'}:\n\n  ${r.url}\n\nWaiting for the browser (Ctrl-C to give up)…\n`,
      );
    if (open) openBrowser(r.url);
    for (;;) {
      if (!changed) await new Promise<void>((resolve) => (wake = resolve));
      changed = false;
      if (gaveUp) return fail(out, opts.json, 'gave up waiting for the browser', 'cancelled');
      const detail = await backend.request('plugins.detail', { id });
      const view = detail && !('ok' in detail) ? detail.signIn : undefined;
      if (view?.pending) continue;
      if (view?.error || view?.state !== 'signed_in')
        return fail(out, opts.json, view?.error ?? 'the sign-in did not complete', 'sign_in_required');
      return done(out, opts.json, id, `signed in${view.issuer ? ` at ${view.issuer}` : ''}`);
    }
  } finally {
    sub.dispose();
    process.off('SIGINT', stop);
  }
}

export async function signOutCommand(backend: Backend, id: string, json: boolean, out: Out): Promise<number> {
  const r = await backend.request('plugins.signOut', { id });
  if (!r.ok) return fail(out, json, r.message, r.code);
  return done(out, json, id, r.detail);
}

function done(out: Out, json: boolean, id: string, detail: string): number {
  if (json) jsonLine(out, { ok: true, detail });
  else out.stdout(`${id}: ${detail}\n`);
  return EXIT_OK;
}

function fail(out: Out, json: boolean, message: string, code: string): number {
  if (json) jsonLine(out, { ok: false, code, error: message });
  else out.stderr(`refused: ${message}\n`);
  return EXIT_FAILED;
}
