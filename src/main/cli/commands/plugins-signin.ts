/**
 * `plugboard plugins signin <id>` and `signout <id>`: OAuth sign-in to a remote MCP server from a
 * terminal. The authorization URL is printed, and opened in the browser where there is one (not
 * with --no-browser, nor on a Linux without a display: then the person opens it wherever they
 * like, on this computer, since the answer comes back to a port on 127.0.0.1). The command waits
 * until the browser comes back, up to five minutes; Ctrl-C gives up.
 */
import { spawn } from 'node:child_process';
import type { PluginRegistry } from '../../plugins';
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
  registry: PluginRegistry,
  id: string,
  opts: { browser: boolean; json: boolean },
  out: Out,
): Promise<number> {
  const spec = registry.record(id)?.spec;
  if (!spec) return fail(out, opts.json, `no plugin "${id}" is installed`, 'not_found');
  const abort = new AbortController();
  const stop = (): void => abort.abort();
  process.once('SIGINT', stop);
  try {
    const r = await registry.signIns.signIn(
      spec,
      (url) => {
        const open = opts.browser && hasDisplay();
        if (opts.json) jsonLine(out, { url, opened: open });
        else
          out.stdout(
            `${open ? 'Opening the sign-in page in your browser' : 'Open this address in a browser on this computer to sign in'}:\n\n  ${url}\n\nWaiting for the browser (Ctrl-C to give up)…\n`,
          );
        if (open) openBrowser(url);
      },
      abort.signal,
    );
    if (!r.ok) return fail(out, opts.json, r.message, r.code);
    if (opts.json) jsonLine(out, r);
    else out.stdout(`${id}: ${r.detail}\n`);
    return EXIT_OK;
  } finally {
    process.off('SIGINT', stop);
  }
}

export async function signOutCommand(registry: PluginRegistry, id: string, json: boolean, out: Out): Promise<number> {
  const spec = registry.record(id)?.spec;
  if (!spec) return fail(out, json, `no plugin "${id}" is installed`, 'not_found');
  const r = await registry.signIns.signOut(spec);
  if (!r.ok) return fail(out, json, r.message, r.code);
  if (json) jsonLine(out, r);
  else out.stdout(`${id}: ${r.detail}\n`);
  return EXIT_OK;
}

function fail(out: Out, json: boolean, message: string, code: string): number {
  if (json) jsonLine(out, { ok: false, code, error: message });
  else out.stderr(`refused: ${message}\n`);
  return EXIT_FAILED;
}
