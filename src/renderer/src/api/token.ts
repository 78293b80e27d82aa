/**
 * The web UI's access token. `plugboard serve` prints a URL carrying `?token=`; we keep the token
 * in this tab's sessionStorage so reloads work, and take it out of the visible URL so it is not
 * shared by copying the address bar or left in screenshots.
 */
const KEY = 'plugboard.token';

/** Forgets a token the server refused (a restarted server prints a new one). */
export function forgetToken(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing stored
  }
}

export function takeToken(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      sessionStorage.setItem(KEY, fromUrl);
    } catch {
      // Storage can be disabled; the token still works for this page load.
    }
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}
