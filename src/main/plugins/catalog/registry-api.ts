/**
 * The MCP registry's `v0` API, read: `GET /v0/servers?search=…&limit=…&cursor=…&version=latest`
 * (a page of servers, newest version each) and `GET /v0/servers/{name}/versions/{version}` (one
 * server.json, `latest` for the newest). Every answer is checked against the API's shapes
 * (server-json.ts) before anything uses it; a registry that cannot be reached, or answers
 * otherwise, is `registry_unreachable` with what was asked and what came back (http-json.ts).
 */
import { failure, type Result } from '../../../shared/failures';
import { fetchJson } from '../http-json';
import { describeIssues, ServerList, ServerResponse } from './server-json';

export const PAGE_SIZE = 30;

export interface ServerPage {
  servers: ServerResponse[];
  /** Entries of the page the registry sent but that are not valid server.json documents, said in words. */
  skipped: string[];
  nextCursor: string | null;
}

/** The registry's base URL, checked: http(s), no query or fragment, no trailing slash. */
export function registryBase(url: string): Result<string> {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return failure(
      'invalid_input',
      `"${url}" is not a URL (expected one such as https://registry.modelcontextprotocol.io)`,
    );
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    return failure('invalid_input', `the registry's URL must start with https:// (or http://), not ${u.protocol}`);
  if (u.search || u.hash) return failure('invalid_input', `the registry's URL takes no query or fragment: ${url}`);
  return { ok: true, value: u.toString().replace(/\/+$/, '') };
}

/** A page of servers, the newest version of each, matching `search` (the registry matches names). */
export async function listServers(
  base: string,
  opts: { search?: string; cursor?: string; limit?: number } = {},
): Promise<Result<ServerPage>> {
  const q = new URLSearchParams({ limit: String(opts.limit ?? PAGE_SIZE), version: 'latest' });
  if (opts.search?.trim()) q.set('search', opts.search.trim());
  if (opts.cursor) q.set('cursor', opts.cursor);
  const url = `${base}/v0/servers?${q.toString()}`;
  const got = await fetchJson(url);
  if (!got.ok) return got;
  const list = ServerList.safeParse(got.value);
  if (!list.success)
    return failure('registry_unreachable', `${url} is not a list of servers: ${describeIssues(list.error)}`);
  const servers: ServerResponse[] = [];
  const skipped: string[] = [];
  for (const [i, raw] of list.data.servers.entries()) {
    const r = ServerResponse.safeParse(raw);
    if (r.success) servers.push(r.data);
    else skipped.push(`servers[${i}] ${nameOf(raw)}: ${describeIssues(r.error)}`);
  }
  return { ok: true, value: { servers, skipped, nextCursor: list.data.metadata?.nextCursor || null } };
}

/** One version of a server (`latest` for the newest), its server.json checked. */
export async function serverVersion(base: string, name: string, version = 'latest'): Promise<Result<ServerResponse>> {
  const url = `${base}/v0/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`;
  const got = await fetchJson(url);
  if (!got.ok) return got.code === 'not_found' ? failure('not_found', `the registry has no ${name} ${version}`) : got;
  const r = ServerResponse.safeParse(got.value);
  if (!r.success) return failure('registry_unreachable', `${url} is not a server.json: ${describeIssues(r.error)}`);
  return { ok: true, value: r.data };
}

function nameOf(raw: unknown): string {
  const name = (raw as { server?: { name?: unknown } } | null)?.server?.name;
  return typeof name === 'string' ? `(${name})` : '';
}
