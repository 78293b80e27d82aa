/**
 * What a plugin may consume (processes, memory, CPU share, /tmp and data folder size), each limit
 * with where its value comes from, what the plugin uses of it now (its whole sandbox, polled with
 * the panel's figures), and a form to change them. A plugin that goes over one is stopped with
 * `limit_exceeded` (shared/failures.ts), and "Open limits" on that failure leads here.
 */
import { useState, type JSX } from 'react';
import type { LimitsView, PluginDetail } from '../../../../shared/contract';
import type { LimitName, LimitUsage } from '../../../../shared/limits';
import { Button } from '../../components/Button';
import { formatBytes } from '../../lib/format';
import { setPluginLimits } from '../../stores/plugin-detail';
import { useStats } from '../../stores/plugin-stats';

const SOURCE: Record<LimitsView['items'][number]['source'], string> = {
  default: 'default',
  manifest: 'its manifest',
  yours: 'yours',
};

/** Each limit as a row of the table names it. */
const LABEL: Record<LimitName, string> = {
  processes: 'Processes',
  memoryBytes: 'Memory',
  cpuWeight: 'CPU share',
  tmpBytes: '/tmp size',
  dataBytes: 'Data folder size',
};

function used(name: LimitName, usage: LimitUsage | undefined): number | null {
  if (!usage || name === 'cpuWeight') return null;
  return usage[name];
}

function Usage({
  name,
  title,
  value,
  now,
}: {
  name: LimitName;
  title: string;
  value: number;
  now: number | null;
}): JSX.Element {
  if (now === null) return <span className="text-fg-subtle">—</span>;
  const share = Math.min(1, value > 0 ? now / value : 0);
  const shown = name === 'processes' ? String(now) : formatBytes(now);
  return (
    <span className="flex items-center gap-1.5 whitespace-nowrap">
      <span
        className="h-1.5 w-16 overflow-hidden rounded-full bg-line"
        role="meter"
        aria-label={`${title} in use`}
        aria-valuemin={0}
        aria-valuemax={value}
        aria-valuenow={now}
      >
        <span
          className={`block h-full ${share >= 0.9 ? 'bg-bad' : share >= 0.7 ? 'bg-warn' : 'bg-ok'}`}
          style={{ width: `${Math.round(share * 100)}%` }}
        />
      </span>
      <span className="tabular-nums text-fg-muted">{shown}</span>
    </span>
  );
}

export function LimitsSection({ detail }: { detail: PluginDetail }): JSX.Element {
  const { limits } = detail;
  const stats = useStats((s) => s.stats[detail.id]);
  const running = stats !== undefined && stats.pid === detail.health.pid;
  const [editing, setEditing] = useState<Record<string, string> | null>(null);
  const custom = limits.items.some((i) => i.source === 'yours');
  return (
    <section aria-label="Limits" className="space-y-1.5">
      <h4 className="text-xs font-semibold text-fg">Limits</h4>
      <p className="text-[11px] text-fg-subtle">
        {limits.enforcement === null
          ? 'Plugins run unsandboxed here, so these limits do not apply.'
          : `Going over one stops the plugin. Here ${limits.enforcement}.`}
      </p>
      <table className="w-full text-xs" aria-label={`Limits of ${detail.id}`}>
        <thead>
          <tr className="border-b border-line text-left text-fg-muted">
            <th className="py-1 pr-3 font-medium">Limit</th>
            <th className="py-1 pr-3 font-medium">Value</th>
            <th className="py-1 font-medium">In use</th>
          </tr>
        </thead>
        <tbody>
          {limits.items.map((i) => (
            <tr key={i.name} className="border-b border-line align-middle last:border-0">
              <td className="py-1.5 pr-3 text-fg">{LABEL[i.name]}</td>
              <td className="py-1.5 pr-3">
                {editing ? (
                  <input
                    className="w-24 rounded border border-line bg-bg px-1.5 py-0.5 font-mono text-[11px] text-fg"
                    aria-label={`${i.title} limit of ${detail.id}`}
                    value={editing[i.key] ?? ''}
                    placeholder={i.shown}
                    onChange={(e) => setEditing({ ...editing, [i.key]: e.target.value })}
                  />
                ) : (
                  <>
                    <span className="whitespace-nowrap tabular-nums text-fg">{i.shown}</span>{' '}
                    <span className="text-[11px] text-fg-subtle">({SOURCE[i.source]})</span>
                  </>
                )}
              </td>
              <td className="py-1.5">
                {i.name === 'cpuWeight' ? (
                  <span className="text-fg-subtle">shared when busy</span>
                ) : (
                  <Usage
                    name={i.name}
                    title={i.title}
                    value={i.value}
                    now={running ? used(i.name, stats.limitUsage) : null}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="flex gap-1.5">
        {editing ? (
          <>
            <Button
              size="sm"
              onClick={() => {
                const changed = Object.fromEntries(Object.entries(editing).filter(([, v]) => v.trim() !== ''));
                void setPluginLimits(detail.id, changed).then((ok) => ok && setEditing(null));
              }}
            >
              Save limits
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setEditing(null)}>
              Cancel
            </Button>
          </>
        ) : (
          <Button
            size="sm"
            icon="settings"
            aria-label={`Change the limits of ${detail.id}`}
            onClick={() => setEditing({})}
          >
            Change limits
          </Button>
        )}
        {custom && !editing && (
          <Button size="sm" variant="ghost" onClick={() => void setPluginLimits(detail.id, null)}>
            Back to defaults
          </Button>
        )}
      </div>
    </section>
  );
}
