/**
 * Capabilities the plugin requested (and any granted without a request, and the network, which
 * any plugin may be granted), each with a grant switch, and the folders and files granted by
 * path. "Enforced" ones Plugboard checks; the others are declared for the user to judge. Below
 * them, what it may consume (LimitsSection).
 */
import type { JSX } from 'react';
import type { PluginDetail } from '../../../../shared/contract';
import { CodeMarks } from '../../components/CodeMarks';
import { Switch } from '../../components/Switch';
import { setGranted } from '../../stores/plugin-detail';
import { FolderGrants } from './FolderGrants';
import { LimitsSection } from './LimitsSection';

export function PermissionsTab({ detail }: { detail: PluginDetail }): JSX.Element {
  return (
    <div className="space-y-3">
      <Capabilities detail={detail} />
      <LimitsSection detail={detail} />
    </div>
  );
}

function Capabilities({ detail }: { detail: PluginDetail }): JSX.Element {
  const caps = detail.capabilities;
  if (caps.length === 0) return <p className="text-xs text-fg-subtle">This plugin requests no capabilities.</p>;
  return (
    <>
      <ul className="divide-y divide-line rounded-md border border-line">
        {caps.map((c) => (
          <li key={c.name} className="flex items-start gap-3 px-2.5 py-2">
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-baseline gap-x-1.5">
                <span className="text-xs font-medium text-fg">{c.title}</span>
                <code className="font-mono text-[11px] text-fg-subtle">{c.name}</code>
                {!c.requested && <span className="text-[10px] uppercase tracking-wide text-warn">not requested</span>}
              </div>
              <p className="text-[11.5px] text-fg-muted">
                <CodeMarks text={c.description} />
              </p>
              <p className="text-[11px] text-fg-subtle">
                <CodeMarks text={c.enforcementNote} />
              </p>
            </div>
            <div className="pt-0.5">
              <Switch
                size="sm"
                checked={c.granted}
                label={`Grant ${c.name} to ${detail.id}`}
                onChange={(v) => void setGranted(detail.id, c.name, v)}
              />
            </div>
          </li>
        ))}
      </ul>
      {!detail.command[0]?.startsWith('http') && <FolderGrants detail={detail} />}
    </>
  );
}
