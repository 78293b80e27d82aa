/** A plugin's tools, each with its "Expose <id>:<tool>" switch, and the enabled/total count. */
import type { JSX } from 'react';
import type { PluginDetail } from '../../../../shared/contract';
import { Button } from '../../components/Button';
import { Switch } from '../../components/Switch';
import { setExposed } from '../../stores/plugin-detail';

export function ToolsTab({ detail }: { detail: PluginDetail }): JSX.Element {
  const exposed = detail.tools.filter((t) => t.exposed).length;
  const total = detail.tools.length;
  if (total === 0) return <p className="text-xs text-fg-subtle">This plugin declares no tools.</p>;
  return (
    <div>
      <div className="mb-1.5 flex items-center gap-2 text-xs text-fg-muted">
        <span className="flex-1 tabular-nums">
          {exposed}/{total} exposed
        </span>
        <Button size="sm" variant="ghost" disabled={exposed === total} onClick={() => void setExposed(detail.id, null, true)}>
          Expose all
        </Button>
        <Button size="sm" variant="ghost" disabled={exposed === 0} onClick={() => void setExposed(detail.id, null, false)}>
          Hide all
        </Button>
      </div>
      <ul className="divide-y divide-line rounded-md border border-line">
        {detail.tools.map((t) => (
          <li key={t.name} className="flex items-start gap-3 px-2.5 py-1.5">
            <div className="min-w-0 flex-1">
              <div className="flex items-center gap-1.5">
                <span className="font-mono text-xs text-fg">{t.name}</span>
                {t.annotations?.title && <span className="truncate text-[11.5px] text-fg-muted">{t.annotations.title}</span>}
                {/* The server's hints (MCP annotations): hints, not guarantees, and said so. */}
                {t.annotations?.destructiveHint === true && t.annotations.readOnlyHint !== true && (
                  <span className="rounded bg-bad-soft px-1 text-[10px] tracking-wide text-bad uppercase" title="The server says this tool may delete or overwrite things (a hint, not a guarantee)">
                    destructive
                  </span>
                )}
                {t.annotations?.readOnlyHint === true && (
                  <span className="text-[10px] tracking-wide text-fg-subtle uppercase" title="The server says this tool only reads (a hint): a model may call it without asking">
                    read-only
                  </span>
                )}
                {t.userCommand && <span className="text-[10px] uppercase tracking-wide text-fg-subtle">command</span>}
                {t.autoApproved && <span className="text-[10px] uppercase tracking-wide text-fg-subtle">auto-approved</span>}
              </div>
              {t.description && <p className="line-clamp-2 text-[11.5px] text-fg-muted">{t.description}</p>}
            </div>
            <div className="pt-0.5">
              <Switch size="sm" checked={t.exposed} label={`Expose ${detail.id}:${t.name}`} onChange={(v) => void setExposed(detail.id, t.name, v)} />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
