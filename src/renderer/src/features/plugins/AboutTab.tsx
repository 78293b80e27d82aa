/** Facts about a plugin's installation, for diagnosing it. */
import type { JSX } from 'react';
import type { PluginDetail } from '../../../../shared/contract';

function Row({ label, value, mono = true }: { label: string; value: string; mono?: boolean }): JSX.Element {
  return (
    <div className="flex gap-2 py-0.5">
      <dt className="w-24 shrink-0 text-fg-subtle">{label}</dt>
      <dd className={`min-w-0 break-all text-fg-muted ${mono ? 'font-mono text-[11.5px]' : ''}`}>{value}</dd>
    </div>
  );
}

export function AboutTab({ detail }: { detail: PluginDetail }): JSX.Element {
  return (
    <dl className="text-xs">
      <Row label="id" value={detail.id} />
      <Row label="version" value={detail.version ?? '—'} />
      <Row label="protocol" value={detail.dialect ?? '—'} />
      <Row label="source" value={detail.source} mono={false} />
      <Row label="lifetime" value={detail.persistent ? 'persistent (kept running)' : 'started per call'} mono={false} />
      <Row label="command" value={detail.command.length > 0 ? detail.command.join(' ') : '—'} />
      <Row label="folder" value={detail.dir} />
      <Row label="manifest" value={detail.manifestPath ?? '—'} />
    </dl>
  );
}
