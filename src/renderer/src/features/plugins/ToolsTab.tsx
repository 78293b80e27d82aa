/**
 * A plugin's tools: each with its "Expose <id>:<tool>" switch, what its declaration costs every
 * request, and what a model's call to it gets (Allow, Ask, Deny; the default marked); at the top
 * the exposed/total count and what the exposed ones add to every request together. Names and
 * descriptions are shown as they are (hidden characters marked: VisibleText), with what the scan
 * flagged (tool-scan.ts), the plugin's hints as hints, and a tool whose definition changed since
 * it was approved with its diff and Accept (it asks until then).
 */
import type { JSX } from 'react';
import { TOOL_POLICIES, type ToolPolicy } from '../../../../shared/assistant';
import type { PluginDetail, ToolView } from '../../../../shared/contract';
import { visibleToModel } from '../../../../shared/apps';
import { PluginIcon } from '../../components/PluginIcon';
import { Button } from '../../components/Button';
import { changeTitle, DefinitionDiff } from '../../components/DefinitionDiff';
import { Icon } from '../../components/Icon';
import { Switch } from '../../components/Switch';
import { ToolFlags } from '../../components/ToolFlags';
import { VisibleText } from '../../components/VisibleText';
import { hasHidden } from '../../../../shared/visible-text';
import { acceptDefinition, setExposed, setToolPolicy } from '../../stores/plugin-detail';
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

/** A changed tool: what changed, and Accept (its policy and exposure then apply to it as it is now). */
function Changed({
  pluginId,
  t,
}: {
  pluginId: string;
  t: ToolView & { change: NonNullable<ToolView['change']> };
}): JSX.Element {
  return (
    <div className="mt-1.5 rounded-md border border-warn/40 bg-warn-soft p-2" data-tool-changed={t.name}>
      <div className="mb-1.5 flex items-center gap-2 text-[11.5px] text-fg">
        <Icon name="alert" size={12} className="shrink-0 text-warn" />
        <span className="min-w-0 flex-1">{changeTitle(t.change)}: a model’s call asks until you accept it.</span>
        <Button size="sm" variant="secondary" onClick={() => void acceptDefinition(pluginId, t.name)}>
          Accept
        </Button>
      </div>
      <DefinitionDiff change={t.change} label={`What changed in ${pluginId}:${t.name}`} />
    </div>
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
          <li key={t.name} className="px-2.5 py-1.5">
            <div className="flex items-start gap-3">
              <div className="min-w-0 flex-1">
                <div className="flex items-center gap-1.5">
                  {t.icon && <PluginIcon icon={t.icon} size={10} className="h-4 w-4 rounded" />}
                  <span className="font-mono text-xs text-fg">
                    <VisibleText text={t.name} name />
                  </span>
                  {(t.title ?? t.annotations?.title) && (
                    <span className="truncate text-[11.5px] text-fg-muted">
                      <VisibleText text={(t.title ?? t.annotations?.title) as string} />
                    </span>
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
                      className="shrink-0 text-[10px] tracking-wide whitespace-nowrap text-fg-subtle uppercase"
                      title={
                        detail.source === 'bundled'
                          ? 'This bundled tool only reads: a model may call it without asking'
                          : 'The plugin says this tool only reads: a hint, not a grant. A model’s call asks unless you allow it'
                      }
                    >
                      {detail.source === 'bundled' ? 'read-only' : 'says read-only'}
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
                {t.description && (
                  // What hides (or was flagged) is shown whole: a clamp could cut it out of sight.
                  <p
                    className={`text-[11.5px] whitespace-pre-wrap text-fg-muted ${t.flags.length || hasHidden(t.description) ? '' : 'line-clamp-2'}`}
                  >
                    <VisibleText text={t.description} />
                  </p>
                )}
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
            </div>
            {/* The full width of the row: a narrow column made the flags and the diff hard to read. */}
            <ToolFlags flags={t.flags} data="data-tool-flag" className="mt-1 space-y-0.5 text-[11px] text-fg" />
            {t.change && <Changed pluginId={detail.id} t={{ ...t, change: t.change }} />}
          </li>
        ))}
      </ul>
      <p className="mt-1.5 text-[11px] text-fg-subtle">
        Allow runs a model’s call at once, Ask shows you the call first, Deny refuses it.
      </p>
    </div>
  );
}
