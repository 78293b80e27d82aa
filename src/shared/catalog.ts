/**
 * The catalog: an MCP registry (the official one's `v0` API, or one of the same shape at the URL
 * the person set), as the screen and the CLI see it. An entry is one server.json document; what it
 * installs (an npm, PyPI or OCI package, or a remote server) is chosen in the import preview.
 * Types only.
 */

export const DEFAULT_CATALOG_URL = 'https://registry.modelcontextprotocol.io';

export interface CatalogPackageView {
  /** `npm`, `pypi`, `oci`, or a kind Plugboard cannot install (`nuget`, `mcpb`…), or `remote`. */
  kind: string;
  /** The package's name (or image, or the remote's URL). */
  identifier: string;
  version: string | null;
  /** Plugboard can install it here; when not, `problem` says why. */
  installable: boolean;
  problem?: string;
}

export interface CatalogEntryView {
  /** The server's name in the registry (reverse-DNS, `io.github.owner/server`). */
  name: string;
  title: string;
  description: string;
  version: string;
  repository: string | null;
  website: string | null;
  /** `active`, `deprecated` or `deleted`, as the registry says; null when it says nothing. */
  status: string | null;
  packages: CatalogPackageView[];
  /** Installed already, as this plugin id (and at this version). */
  installed: { id: string; version: string } | null;
}

export interface CatalogPageView {
  url: string;
  entries: CatalogEntryView[];
  /** For the next page; null on the last one. */
  nextCursor: string | null;
}
