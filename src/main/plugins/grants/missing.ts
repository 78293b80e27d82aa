/**
 * A plugin that failed for want of something it was not granted says so in its own words, which
 * rarely name the grant: a weather plugin without the network reports "could not fetch the
 * forecast", a server whose folder is not in its sandbox "ENOENT: no such file or directory". When
 * a failure's message or last stderr lines read like that and the plugin lacks the grant, the
 * failure names the grant and how to give it (`details.missingGrant`, which the panel turns into
 * a button). It says "may": the plugin's words are evidence, not proof.
 */
import type { FolderGrant } from '../../../shared/capabilities';
import type { Failure, MissingGrant } from '../../../shared/failures';
import type { PathGrantView } from '../../../shared/views';

/** What programs say when there is no network (no route, no resolver, nothing listening). */
const NO_NETWORK =
  /ENOTFOUND|EAI_AGAIN|getaddrinfo|Temporary failure in name resolution|Name or service not known|nodename nor servname|No address associated with hostname|Network is unreachable|ENETUNREACH|EHOSTUNREACH|ECONNREFUSED|Connection refused|Could not resolve host|Failed to establish a new connection|NameResolutionError|fetch failed|socket\.gaierror|Max retries exceeded/i;
/** What programs say when a path is not there, or not writable. */
const NO_PATH =
  /ENOENT|EACCES|EROFS|EPERM|No such file or directory|Permission denied|Read-only file system|does not exist|not accessible/i;
const READ_ONLY = /EROFS|Read-only file system|EACCES|Permission denied/i;

export interface GrantFacts {
  id: string;
  /** The plugin runs sandboxed: what it was not granted is not there at all. */
  sandboxed: boolean;
  net: boolean;
  /** The folders and files its command and environment name (as the preview offered them). */
  offered: PathGrantView[];
  /** What it was granted by path. */
  folders: readonly FolderGrant[];
}

function textOf(f: Failure): string {
  return [f.message, ...(f.details?.stderrTail ?? [])].join('\n');
}

/** The grant a failure seems to lack, or null. */
export function missingGrantOf(f: Failure, facts: GrantFacts): MissingGrant | null {
  if (!facts.sandboxed) return null;
  const text = textOf(f);
  for (const p of facts.offered) {
    const granted = facts.folders.find((g) => g.path === p.path);
    const mentioned = text.includes(p.path) || (p.named !== undefined && text.includes(p.named));
    if (!mentioned || !NO_PATH.test(text)) continue;
    if (!granted) return { kind: 'folder', path: p.path, write: p.write };
    if (!granted.write && p.write && READ_ONLY.test(text)) return { kind: 'folder', path: p.path, write: true };
  }
  if (!facts.net && NO_NETWORK.test(text)) return { kind: 'net' };
  return null;
}

/** How to give a grant, in words for a message. */
export function grantHint(id: string, g: MissingGrant): string {
  if (g.kind === 'net')
    return `${id} was not granted the network and may need it: grant it in its Permissions (plugboard plugins grant ${id} net)`;
  const how = g.write ? 'read-write' : 'read-only';
  return `${id} was not granted ${g.path}, which it is given, and may need it: grant it ${how} in its Permissions (plugboard plugins grant ${id} --folder ${g.path}${g.write ? '' : ':ro'})`;
}

/** The failure with the grant it seems to lack named, or as it was. */
export function explainFailure(f: Failure, facts: GrantFacts): Failure {
  if (f.details?.missingGrant) return f;
  const g = missingGrantOf(f, facts);
  if (!g) return f;
  return {
    ...f,
    message: `${f.message} (${grantHint(facts.id, g)})`,
    details: { ...(f.details ?? {}), missingGrant: g },
  };
}
