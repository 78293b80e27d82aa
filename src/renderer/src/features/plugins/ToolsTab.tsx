/**
 * A plugin's tools: each with its "Expose <id>:<tool>" switch, what its declaration costs every
 * request, and what a model's call to it gets (Allow, Ask, Deny; the default marked); at the top
 * the exposed/total count and what the exposed ones add to every request together.
 */
import type { JSX } from 'react';
import { TOOL_POLICIES, type ToolPolicy } from '../../../../shared/assistant';
import type { PluginDetail, ToolView } from '../../../../shared/contract';
import { visibleToModel } from '../../../../shared/apps';
import { PluginIcon } from '../../components/PluginIcon';
import { Button } from '../../components/Button';
import { Switch } from '../../components/Switch';
import { setExposed, setToolPolicy } from '../../stores/plugin-detail';
import { policyOption } from './policy-text';
import { costLine, tokensText } from './tool-cost';

function PolicySelect({ pluginId, t }: { pluginId: string; t: ToolView }): JSX.Element {
  const tone = t.policy === 'deny' ? 'text-bad' : t.policy === 'allow' ? 'text-fg' : 'text-fg-muted';
  return (
    <select
      aria-label={`When a model calls ${pluginId}:${t.name}`}
      title="When a model calls this tool: run it, ask you first, or refuse"
      value={t.policy}
      onChange={(e) => void setToolPolicy(pluginId, t.name, e.target.value as ToolPolicy)}
      className={`h-6 rounded-md border border-line bg-bg px-1 text-[11px] ${tone} hover:border-line-strong focus-visible:border-accent ${t.exposed ? '' : 'opacity-60'}`}
    >
      {TOOL_POLICIES.map((p) => (
        <option key={p} value={p}>
          {policyOption(p, t.defaultPolicy)}
        </option>
      ))}
    </select>
  );
}

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
        <Button
          size="sm"
          variant="ghost"
          disabled={exposed === total}
          onClick={() => void setExposed(detail.id, null, true)}
        >
          Expose all
        </Button>
        <Button
          size="sm"
          variant="ghost"
          disabled={exposed === 0}
          onClick={() => void setExposed(detail.id, null, false)}
        >
          Hide all
        </Button>
      </div>
      {/* Its own line: beside the count it wrapped in a narrow panel. */}
      <p
        className="mb-1.5 text-[11.5px] text-fg-subtle tabular-nums"
        data-tools-cost
        title="An estimate from the declarations' text (about 4 characters a token): what offering the exposed tools costs each model request"
      >
        Exposed tools {costLine(detail.tools)}
      </p>
      <ul className="divide-y divide-line rounded-md border border-line">
        {detail.tools.map((t) => (
          <li key={t.name} className="flex items-start gap-3 px-2.5 py-1.5">
            <div className="min-w-0 flex-1">
              <div className="flex items-center gap-1.5">
                {t.icon && <PluginIcon icon={t.icon} size={10} className="h-4 w-4 rounded" />}
                <span className="font-mono text-xs text-fg">{t.name}</span>
                {t.annotations?.title && (
                  <span className="truncate text-[11.5px] text-fg-muted">{t.annotations.title}</span>
                )}
                {/* The server's hints (MCP annotations): hints, not guarantees, and said so. */}
                {t.annotations?.destructiveHint === true && t.annotations.readOnlyHint !== true && (
                  <span
                    className="rounded bg-bad-soft px-1 text-[10px] tracking-wide text-bad uppercase"
                    title="The server says this tool may delete or overwrite things (a hint, not a guarantee)"
                  >
                    destructive
                  </span>
                )}
                {t.annotations?.readOnlyHint === true && (
                  <span
                    className="text-[10px] tracking-wide text-fg-subtle uppercase"
                    title="The server says this tool only reads (a hint): a model may call it without asking"
                  >
                    read-only
                  </span>
                )}
                {t.userCommand && <span className="text-[10px] uppercase tracking-wide text-fg-subtle">command</span>}
                {/* MCP Apps: an interface of its own in its cards; or a tool only that App calls. */}
                {t.ui && (t.ui.resourceUri || !visibleToModel(t.ui)) && (
                  <span
                    className="rounded border border-accent/40 px-1 text-[10px] tracking-wide text-accent uppercase"
                    title={
                      visibleToModel(t.ui)
                        ? 'Its results show in an App of its server, in the tool card'
                        : 'Only its server’s App calls it: no model is offered it'
                    }
                    data-tool-app={visibleToModel(t.ui) ? 'app' : 'app-only'}
                  >
                    {visibleToModel(t.ui) ? 'app' : 'app only'}
                  </span>
                )}
              </div>
              {t.description && <p className="line-clamp-2 text-[11.5px] text-fg-muted">{t.description}</p>}
            </div>
            <div className="flex shrink-0 items-center gap-2 pt-0.5">
              {!t.userCommand && (
                <span
                  className={`text-[10.5px] tabular-nums ${t.exposed ? 'text-fg-muted' : 'text-fg-subtle line-through'}`}
                  title={
                    t.exposed
                      ? 'What its declaration adds to every model request (an estimate)'
                      : 'What its declaration would add to every model request, if exposed (an estimate)'
                  }
                  data-tool-cost={t.name}
                >
                  {tokensText(t.declarationTokens)}
                </span>
              )}
              <PolicySelect pluginId={detail.id} t={t} />
              <Switch
                size="sm"
                checked={t.exposed}
                label={`Expose ${detail.id}:${t.name}`}
                onChange={(v) => void setExposed(detail.id, t.name, v)}
              />
            </div>
          </li>
        ))}
      </ul>
      <p className="mt-1.5 text-[11px] text-fg-subtle">
        Allow runs a model’s call at once, Ask shows you the call first, Deny refuses it.
      </p>
    </div>
  );
}
