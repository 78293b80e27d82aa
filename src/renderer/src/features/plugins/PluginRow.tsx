/**
 * One plugin in the panel: name, health, live numbers and the Enable switch; expands into its
 * detail. Selects only its own plugin, so one plugin's ping does not re-render the others.
 */
import { memo, type JSX } from 'react';
import { Icon } from '../../components/Icon';
import { PluginIcon } from '../../components/PluginIcon';
import { Switch } from '../../components/Switch';
import { toggleDetail, usePluginDetail } from '../../stores/plugin-detail';
import { useStats } from '../../stores/plugin-stats';
import { setPluginEnabled, usePlugins } from '../../stores/plugins';
import { HealthStatus } from './HealthStatus';
import { rowFigures } from './metrics';
import { PluginDetailView } from './PluginDetail';

function Metrics({ id }: { id: string }): JSX.Element | null {
  const health = usePlugins((s) => s.byId[id]?.health);
  const stats = useStats((s) => s.stats[id]);
  if (!health) return null;
  const parts = rowFigures(health, stats);
  if (parts.length === 0) return null;
  return (
    <dl className="flex flex-wrap gap-x-3 gap-y-0.5 text-[11px] text-fg-subtle tabular-nums">
      {parts.map(([k, v]) => (
        <div key={k} className="flex gap-1">
          <dt>{k}</dt>
          <dd className="text-fg-muted">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export const PluginRow = memo(function PluginRow({ id }: { id: string }): JSX.Element | null {
  const p = usePlugins((s) => s.byId[id]);
  const busy = usePlugins((s) => s.busy[id]);
  const expanded = usePluginDetail((s) => s.expanded === id);
  if (!p) return null;
  const detailId = `plugin-detail-${id}`;
  return (
    <li className={`border-b border-line ${expanded ? 'bg-subtle' : ''}`} data-plugin-id={id}>
      <div className="flex items-start gap-2 px-3 pt-2 pb-1">
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={detailId}
          onClick={() => toggleDetail(id)}
          className="group -ml-1 flex min-w-0 flex-1 items-start gap-1 rounded px-1 text-left"
        >
          <Icon
            name={expanded ? 'chevronDown' : 'chevronRight'}
            size={14}
            className="mt-[3px] shrink-0 text-fg-subtle group-hover:text-fg-muted"
          />
          {p.icon && <PluginIcon icon={p.icon} size={12} className="mt-px h-[18px] w-[18px] rounded" />}
          <span className="min-w-0 flex-1">
            <span className="flex items-baseline gap-1.5">
              <span className="truncate font-medium">{p.name}</span>
              {p.version && <span className="shrink-0 text-[11px] text-fg-subtle tabular-nums">{p.version}</span>}
              {p.source === 'bundled' && (
                <span className="shrink-0 text-[10px] uppercase tracking-wide text-fg-subtle">bundled</span>
              )}
            </span>
            <span className="block truncate text-[11px] text-fg-subtle">
              {p.id}
              {p.dialect ? ` · ${p.dialect}` : ''}
              {p.toolCount > 0 ? ` · ${p.exposedCount}/${p.toolCount} tools` : ''}
            </span>
          </span>
        </button>
        <div className="flex shrink-0 items-center gap-3 pt-0.5">
          <HealthStatus health={p.health} />
          <Switch
            checked={p.enabled}
            label={`Enable ${id}`}
            disabled={busy === 'enable'}
            onChange={(v) => void setPluginEnabled(id, v)}
          />
        </div>
      </div>
      <div className="space-y-1 pb-2 pl-[30px] pr-3 empty:hidden">
        <Metrics id={id} />
        {p.error && (
          <p className="flex gap-1.5 text-xs text-bad">
            <Icon name="alert" size={13} className="mt-0.5 shrink-0" />
            <span className="min-w-0 break-words">{p.error}</span>
          </p>
        )}
        {p.needsSettings.length > 0 && (
          <p className="text-xs text-warn">Needs settings: {p.needsSettings.join(', ')}</p>
        )}
      </div>
      {expanded && <PluginDetailView id={id} domId={detailId} />}
    </li>
  );
});
