/**
 * Plugboard as an MCP server, its door: every plugin it hosts, of every protocol, offered to any
 * MCP client under the same registry, approvals, sandbox and audit log as the app's. It stands
 * where server/ and cli/ stand, on the service, the assistant and the plugin service, and never
 * reaches the host. `plugboard mcp` serves one app on stdio (stdio.ts); `plugboard serve` serves
 * many over Streamable HTTP at `/mcp` (http.ts); both build their servers from one hub (hub.ts).
 */
export { describeClient, McpHub, type HubOptions } from './hub';
export { McpHttpEndpoint, type McpHttpOptions } from './http';
export { guardStdout, serveStdio, type GuardedStdout } from './stdio';
