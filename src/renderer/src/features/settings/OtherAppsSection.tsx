/**
 * Settings → Use your plugins in other apps: what to put in Claude Desktop's, Cursor's or VS
 * Code's MCP config so that they use this Plugboard's plugins, every protocol, under the same
 * approvals, sandbox and audit log (`plugboard mcp` on this data folder), each with Copy. In the
 * web UI, the HTTP endpoint of this server too, for apps that connect over HTTP.
 */
import { useEffect, useState, type JSX } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { Tabs } from '../../components/Tabs';
import type { McpClientSnippet } from '../../../../shared/contract';
import { loadMcpClients, useMcpClients } from '../../stores/mcp-clients';
import { SectionHead } from './SectionHead';

export function OtherAppsSection(): JSX.Element {
  const snippets = useMcpClients((s) => s.snippets);
  const error = useMcpClients((s) => s.error);
  const http = useMcpClients((s) => s.http);
  const [app, setApp] = useState<McpClientSnippet['app']>('claude');
  useEffect(() => void loadMcpClients(), []);
  const shown = snippets?.find((s) => s.app === app) ?? snippets?.[0];
  return (
    <section aria-label="Use your plugins in other apps" className="space-y-3">
      <SectionHead title="Use your plugins in other apps">
        Claude Desktop, Cursor, VS Code and any other MCP client can use the tools of every plugin you run here, of
        every protocol. Their calls follow the same approvals, sandbox and audit log: a tool that asks is asked about in
        that app, and here while Plugboard is open.
      </SectionHead>
      {!snippets && <p className="text-xs text-fg-subtle">Loading…</p>}
      {error && (
        <p role="alert" className="text-xs text-bad">
          {error}
        </p>
      )}
      {snippets && snippets.length > 0 && shown && (
        <>
          <Tabs
            label="App"
            tabs={snippets.map((s) => ({ key: s.app, label: s.label }))}
            value={shown.app}
            onChange={setApp}
          >
            <div className="space-y-1.5 pt-2" data-testid="mcp-snippet">
              <p className="text-xs text-fg-muted">
                Add this to <span className="font-mono text-[12px] text-fg">{shown.file}</span>, then restart{' '}
                {shown.label}:
              </p>
              <pre className="max-h-80 overflow-auto rounded-lg border border-line bg-subtle px-3 py-2 font-mono text-[12px] break-all whitespace-pre-wrap text-fg select-all">
                {shown.text}
              </pre>
              <CopyButton text={() => shown.text} label={`Copy for ${shown.label}`} />
            </div>
          </Tabs>
        </>
      )}
      {http && (
        <div className="space-y-1.5 border-t border-line pt-3" data-testid="mcp-http">
          <p className="text-xs text-fg-muted">
            Over HTTP, while this server runs (Streamable HTTP; each app gets its own session):
          </p>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-xs">
            <dt className="text-fg-muted">URL</dt>
            <dd className="font-mono text-[12px] break-all text-fg">{http.url}</dd>
            <dt className="text-fg-muted">Header</dt>
            <dd className="font-mono text-[12px] break-all text-fg">Authorization: Bearer {http.token}</dd>
          </dl>
          <div className="flex flex-wrap gap-2">
            <CopyButton text={() => http.url} label="Copy URL" />
            <CopyButton text={() => `Authorization: Bearer ${http.token}`} label="Copy header" />
          </div>
        </div>
      )}
    </section>
  );
}
