/**
 * Settings → Data folder: where Plugboard keeps everything (conversations, settings, installed
 * plugins, the audit log, secrets where there is no key store), with Copy path, and in the
 * desktop app Open folder (a web page cannot open the server's folders).
 */
import { useEffect, useState, type JSX } from 'react';
import { Button } from '../../components/Button';
import { CopyButton } from '../../components/CopyButton';
import { loadAppInfo, useAppInfo } from '../../stores/app-info';
import { openDataFolder } from '../../stores/system-settings';
import { SectionHead } from './SectionHead';

export function DataSection(): JSX.Element {
  const info = useAppInfo((s) => s.info);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => loadAppInfo(), []);
  return (
    <section aria-label="Data folder" className="space-y-3">
      <SectionHead title="Data folder">
        Conversations, settings, installed plugins and the audit log live here, readable by you alone. Back it up to
        keep them; no plugin can read it.
      </SectionHead>
      {!info && <p className="text-xs text-fg-subtle">Loading…</p>}
      {info && (
        <>
          <div className="rounded-lg border border-line bg-subtle px-3 py-2">
            <p className="text-[11px] font-medium text-fg-muted">Location</p>
            <p className="font-mono text-[12.5px] break-all text-fg select-all" data-testid="data-dir">
              {info.dataDir}
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <CopyButton text={() => info.dataDir} label="Copy path" />
            {info.transport === 'ipc' && (
              <Button
                size="sm"
                icon="folder"
                onClick={() => void openDataFolder().then((r) => setError(r.ok ? null : r.message))}
              >
                Open folder
              </Button>
            )}
          </div>
          {error && (
            <p role="alert" className="text-xs text-bad">
              {error}
            </p>
          )}
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-xs">
            <dt className="text-fg-muted">Secrets</dt>
            <dd className="text-fg">{info.secretStore}</dd>
            <dt className="text-fg-muted">Running as</dt>
            <dd className="text-fg">
              Plugboard {info.version} · {info.platform} ·{' '}
              {info.transport === 'ipc' ? 'desktop app' : 'web UI (plugboard serve)'}
            </dd>
          </dl>
        </>
      )}
    </section>
  );
}
