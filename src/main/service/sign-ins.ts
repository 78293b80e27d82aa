/**
 * Sign-ins to remote MCP servers as the screens drive them: one at a time per plugin, answered
 * as soon as the authorization page is known (the desktop app opens it in the browser itself; the
 * web UI opens it in a tab), while the sign-in goes on until the browser comes back or it times
 * out. How the last one ended is kept for the plugin's detail, and announced.
 */
import type { Outcome } from '../../shared/failures';
import type { SignInView } from '../../shared/views';
import type { PluginRegistry } from '../plugins';

export interface SignInOptions {
  /** Opens a page in the person's browser (the desktop app); absent: the screen opens it. */
  openExternal?(url: string): void;
  /** A sign-in ended (or started): the panel reads the plugin again. */
  changed(id: string, reason: string): void;
}

export class SignInService {
  private readonly pending = new Map<string, AbortController>();
  private readonly errors = new Map<string, string>();

  constructor(
    private readonly registry: PluginRegistry,
    private readonly opts: SignInOptions,
  ) {}

  async view(id: string): Promise<SignInView | undefined> {
    const spec = this.registry.record(id)?.spec;
    if (!spec) return undefined;
    const state = await this.registry.signIns.state(spec);
    if (!state) return undefined;
    const error = this.errors.get(id);
    return { ...state, ...(this.pending.has(id) ? { pending: true } : {}), ...(error ? { error } : {}) };
  }

  start(id: string): Promise<Outcome<{ detail: string; url?: string; opened?: boolean }>> {
    const spec = this.registry.record(id)?.spec;
    if (!spec) return Promise.resolve({ ok: false, code: 'not_found', message: `no plugin "${id}"` });
    // A new sign-in replaces one still waiting for the browser.
    this.pending.get(id)?.abort();
    const abort = new AbortController();
    this.pending.set(id, abort);
    this.errors.delete(id);
    return new Promise((answer) => {
      let answered = false;
      const reply = (r: Outcome<{ detail: string; url?: string; opened?: boolean }>): void => {
        if (!answered) answer(r);
        answered = true;
      };
      const done = this.registry.signIns.signIn(
        spec,
        (url) => {
          const opened = this.opts.openExternal !== undefined;
          this.opts.openExternal?.(url);
          reply({ ok: true, detail: 'waiting for the browser', url, opened });
          this.opts.changed(id, 'sign-in started');
        },
        abort.signal,
      );
      void done.then((r) => {
        if (this.pending.get(id) === abort) this.pending.delete(id);
        if (!r.ok && !abort.signal.aborted) this.errors.set(id, r.message);
        reply(r);
        this.opts.changed(id, r.ok ? r.detail : `sign-in failed: ${r.message}`);
      });
    });
  }

  async signOut(id: string): Promise<Outcome<{ detail: string }>> {
    const spec = this.registry.record(id)?.spec;
    if (!spec) return { ok: false, code: 'not_found', message: `no plugin "${id}"` };
    this.pending.get(id)?.abort();
    this.errors.delete(id);
    const r = await this.registry.signIns.signOut(spec);
    this.opts.changed(id, r.ok ? 'signed out' : r.message);
    return r;
  }

  dispose(): void {
    for (const a of this.pending.values()) a.abort();
    this.pending.clear();
  }
}
