/**
 * The catalog's door: an MCP registry searched and browsed, its entries installed as imports are,
 * pinned (catalog.ts, to-import.ts), and its `v0` API read (registry-api.ts).
 */
export { Catalog } from './catalog';
export { serverVersion, registryBase } from './registry-api';
export { toImport, type CatalogImport } from './to-import';
