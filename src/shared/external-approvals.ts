/**
 * A call another app asks Plugboard to run (an MCP client of `plugboard mcp` or of `/mcp`) whose
 * tool's policy is ask: while it waits, the app open on the same data folder shows it as an
 * approval card, beside the form the asking app may show; the first answer decides.
 */

export interface ExternalApprovalView {
  id: string;
  plugin: string;
  tool: string;
  args: Record<string, unknown>;
  /** The asking app, as it named itself (its MCP `clientInfo`): "Claude Desktop 0.10.2". */
  client: string;
  /** When it was asked (ms since the epoch). */
  at: number;
}

/** What the person can answer from another app's request: run it this once, or not. */
export type ExternalDecision = 'once' | 'deny';
