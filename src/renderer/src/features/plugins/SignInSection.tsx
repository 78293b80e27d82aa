/**
 * A remote MCP server's sign-in (OAuth), in its expanded detail: whether the person is signed
 * in and where, "Sign in" (the authorization page opens in the browser; the panel says it is
 * waiting for it) and "Sign out" (the tokens revoked where the server can, and forgotten).
 */
import type { JSX } from 'react';
import type { SignInView } from '../../../../shared/contract';
import { Button } from '../../components/Button';
import { Spinner } from '../../components/Spinner';
import { signIn, signOut } from '../../stores/sign-in';

function hostOf(url: string | undefined): string {
  if (!url) return 'its authorization server';
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function SignInSection({ id, view }: { id: string; view: SignInView }): JSX.Element {
  const signedIn = view.state === 'signed_in';
  return (
    <section aria-label={`Sign-in for ${id}`} className="rounded-md border border-line bg-subtle px-2.5 py-2 text-xs">
      <div className="flex flex-wrap items-center gap-2">
        <span className={signedIn ? 'text-ok' : 'text-fg-muted'} data-sign-in-state={view.state}>
          {signedIn ? `Signed in at ${hostOf(view.issuer)}` : 'Not signed in'}
        </span>
        <span className="flex-1" />
        {view.pending && (
          <span className="flex items-center gap-1.5 text-fg-subtle">
            <Spinner /> Waiting for the browser…
          </span>
        )}
        {signedIn ? (
          <Button size="sm" icon="power" aria-label={`Sign out of ${id}`} onClick={() => void signOut(id)}>
            Sign out
          </Button>
        ) : (
          <Button
            size="sm"
            variant="primary"
            icon="key"
            aria-label={`Sign in to ${id}`}
            onClick={() => void signIn(id)}
          >
            {view.pending ? 'Sign in again' : 'Sign in'}
          </Button>
        )}
      </div>
      {!signedIn && !view.pending && (
        <p className="mt-1 text-fg-subtle">
          This server asks you to sign in before it can be used. The sign-in page opens in your browser; the tokens are
          kept in the secret store.
        </p>
      )}
      {view.error && <p className="mt-1 text-bad">The last sign-in did not complete: {view.error}</p>}
    </section>
  );
}
