/**
 * The `/` palette: exposed tools, user commands and MCP prompts, fuzzy-filtered by what follows
 * the slash. A trailing "…" marks entries that open a form for their arguments; a badge marks a
 * prompt (it fills the composer) and a tool whose plugin is stopped, failed or needs settings. It is a listbox driven from
 * the composer's textarea (which keeps focus and points at the highlighted option with
 * aria-activedescendant), like a search field's suggestions.
 */
import { useEffect, useRef, type JSX } from 'react';
import type { PaletteEntry } from '../../../../shared/contract';
import { PluginIcon } from '../../components/PluginIcon';
import { Kbd } from '../../components/Kbd';
import { Spinner } from '../../components/Spinner';
import { hasParameters, inlineCommand } from '../../stores/palette';
import { entryStatus, type EntryStatus } from '../../stores/palette-status';
import { usePlugins } from '../../stores/plugins';

export const PALETTE_ID = 'tool-palette';
export const optionId = (i: number): string => `tool-palette-option-${i}`;

const STATUS_TONE: Record<EntryStatus['tone'], string> = {
  bad: 'border-bad/40 text-bad',
  warn: 'border-warn/40 text-warn',
  idle: 'border-line text-fg-subtle',
};

/** The badge of a plugin that cannot simply run the tool now; the option's description says it in words. */
function StatusBadge({ status }: { status: EntryStatus }): JSX.Element {
  return (
    <span
      aria-hidden="true"
      className={`shrink-0 rounded border px-1 text-[10px] ${STATUS_TONE[status.tone]}`}
      title={status.description}
      data-entry-status={status.badge}
    >
      {status.badge}
    </span>
  );
}

export function Palette({
  results,
  active,
  loading,
  error,
  query,
  onPick,
  onHover,
}: {
  results: PaletteEntry[];
  active: number;
  loading: boolean;
  error: string | null;
  query: string;
  onPick: (e: PaletteEntry) => void;
  onHover: (i: number) => void;
}): JSX.Element {
  const list = useRef<HTMLUListElement>(null);
  const plugins = usePlugins((s) => s.byId);
  useEffect(() => {
    list.current?.querySelector(`#${optionId(active)}`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  return (
    <div className="absolute inset-x-0 bottom-full z-20 mb-2 overflow-hidden rounded-lg border border-line bg-bg shadow-pop">
      <div className="flex items-center gap-2 border-b border-line px-3 py-1.5 text-[11px] text-fg-subtle">
        <span className="flex-1">Tools and commands{query ? ` matching “${query}”` : ''}</span>
        <span className="flex items-center gap-1">
          <Kbd>↑</Kbd>
          <Kbd>↓</Kbd> choose <Kbd>Enter</Kbd> run <Kbd>Tab</Kbd> complete <Kbd>Esc</Kbd> close
        </span>
      </div>
      <ul
        ref={list}
        id={PALETTE_ID}
        role="listbox"
        aria-label="Tools and commands"
        className="max-h-72 overflow-y-auto py-1"
      >
        {loading && (
          <li className="flex items-center gap-2 px-3 py-2 text-xs text-fg-subtle">
            <Spinner /> Loading tools…
          </li>
        )}
        {error && <li className="px-3 py-2 text-xs text-bad">Could not list tools: {error}</li>}
        {!loading && !error && results.length === 0 && (
          <li className="px-3 py-2 text-xs text-fg-subtle">
            {query
              ? 'No tool matches. Enter sends the text as typed.'
              : 'No tools are exposed. Open Plugins to enable some.'}
          </li>
        )}
        {results.map((e, i) => {
          // A prompt asks nothing of its plugin's health: it is listed only while the server runs.
          const status = e.kind === 'prompt' ? null : entryStatus(plugins[e.plugin]);
          return (
            <li
              key={`${e.plugin}:${e.name}:${e.kind}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              aria-description={status?.description}
              data-entry-kind={e.kind}
              onMouseDown={(ev) => ev.preventDefault()}
              onMouseMove={() => i !== active && onHover(i)}
              onClick={() => onPick(e)}
              className={`mx-1 flex cursor-pointer items-baseline gap-2 rounded-md px-2 py-1.5 ${i === active ? 'bg-accent-soft' : ''}`}
            >
              {e.icon && <PluginIcon icon={e.icon} size={11} className="h-4 w-4 self-center rounded" />}
              <span className="shrink-0 font-mono text-[12px] text-fg">
                {inlineCommand(e)}
                {hasParameters(e) && <span className="text-fg-subtle">{' …'}</span>}
              </span>
              <span className="min-w-0 flex-1 truncate text-xs text-fg-muted">{e.description}</span>
              {e.kind === 'command' && (
                <span className="shrink-0 rounded border border-line px-1 text-[10px] text-fg-subtle">command</span>
              )}
              {e.kind === 'prompt' && (
                <span
                  className="shrink-0 rounded border border-accent/40 px-1 text-[10px] text-accent"
                  title="An MCP prompt: it fills the message box, and you send it"
                >
                  prompt
                </span>
              )}
              {status && <StatusBadge status={status} />}
              <span className="shrink-0 text-[11px] text-fg-subtle">{e.pluginName}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
