/**
 * Settings → Use your plugins in other apps: the config snippets for Claude Desktop, Cursor and
 * VS Code (read from the back end, which knows how this installation starts `plugboard mcp`), and
 * in the web UI the HTTP endpoint this server offers them as well.
 */
import { create } from 'zustand';
import type { McpClientSnippet } from '../../../shared/contract';
import { getApi, mcpHttpEndpoint } from '../api';
import { errorText } from './toasts';

interface McpClientsState {
  snippets: McpClientSnippet[] | null;
  /** Why there are none (this Plugboard cannot tell how to start `plugboard mcp`, or it failed). */
  error: string | null;
  http: { url: string; token: string } | null;
}

export const useMcpClients = create<McpClientsState>()(() => ({ snippets: null, error: null, http: null }));

export async function loadMcpClients(): Promise<void> {
  useMcpClients.setState({ http: mcpHttpEndpoint() });
  try {
    const r = await getApi().invoke('app.mcpClients', {});
    useMcpClients.setState(r.ok ? { snippets: r.snippets, error: null } : { snippets: [], error: r.message });
  } catch (e) {
    useMcpClients.setState({ snippets: [], error: errorText(e) });
  }
}
