/**
 * The plugin panel, a landmark region named "Plugins" (a named <section>; an <aside> would be a
 * "complementary" landmark, which is not what finding the panel by role expects): every plugin, including those that failed to load, with
 * health as colour and text. Stats are polled only while it is mounted (i.e. open).
 */
import { useEffect, useMemo, useRef, useState, type JSX } from 'react';
import { IconButton } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { watchStats } from '../../stores/plugin-stats';
import { refreshPlugins, usePlugins } from '../../stores/plugins';
import { togglePanel, useUi } from '../../stores/ui';
import { openCatalog } from '../../stores/catalog';
import { checkForUpdates } from '../../stores/updates';
import { Button } from '../../components/Button';
import { InstallButton } from '../install/InstallPicker';
import { isTrouble } from './health';
import { PluginRow } from './PluginRow';

function Summary(): JSX.Element {
  const byId = usePlugins((s) => s.byId);
  const counts = useMemo(() => {
    const all = Object.values(byId);
    return {
      total: all.length,
      running: all.filter((p) => p.health.state === 'ready' || p.health.state === 'busy').length,
      trouble: all.filter((p) => isTrouble(p.health.state) || p.error).length,
    };
  }, [byId]);
  return (
    <p className="text-[11px] text-fg-subtle tabular-nums">
      {counts.total} installed · {counts.running} running
      {counts.trouble > 0 && <span className="text-bad"> · {counts.trouble} need attention</span>}
    </p>
  );
}

export function PluginPanel(): JSX.Element {
  const order = usePlugins((s) => s.order);
  const byId = usePlugins((s) => s.byId);
  const loaded = usePlugins((s) => s.loaded);
  const loadError = usePlugins((s) => s.loadError);
  const [filter, setFilter] = useState('');

  useEffect(() => watchStats(), []);
  // Opened by the person (a click, Ctrl+.): focus goes into the panel, on its filter, so the
  // keyboard and the screen reader are where the panel is. Opened with the app: focus stays.
  const focusTick = useUi((s) => s.focusPanelTick);
  const filterRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusTick > 0) filterRef.current?.focus();
  }, [focusTick]);

  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    if (!q) return order;
    return order.filter((id) => {
      const p = byId[id];
      return !!p && (p.id.toLowerCase().includes(q) || p.name.toLowerCase().includes(q) || p.health.state.includes(q));
    });
  }, [order, byId, filter]);

  return (
    <section
      aria-label="Plugins"
      id="plugin-panel"
      // Below 900 px the panel lies over the chat (which keeps its width) instead of squeezing it.
      className="flex h-full w-[420px] shrink-0 flex-col border-l border-line bg-bg max-[900px]:absolute max-[900px]:inset-y-0 max-[900px]:right-0 max-[900px]:z-20 max-[900px]:w-[min(420px,100%)] max-[900px]:shadow-pop"
    >
      <header className="flex items-center gap-2 border-b border-line px-3 py-2">
        <div className="min-w-0 flex-1">
          <h2 className="text-[13px] font-semibold">Plugins</h2>
          <Summary />
        </div>
        <Button size="sm" variant="ghost" icon="arrowUp" onClick={() => void checkForUpdates()}>
          Check for updates
        </Button>
        <IconButton icon="restart" label="Reload plugin list" size="sm" onClick={() => void refreshPlugins()} />
        <IconButton icon="x" label="Close panel" size="sm" onClick={() => togglePanel(false)} />
      </header>
      <div className="border-b border-line px-3 py-1.5">
        <label className="flex items-center gap-1.5 rounded-md border border-line bg-subtle px-2 focus-within:border-accent">
          <Icon name="search" size={13} className="text-fg-subtle" />
          <input
            ref={filterRef}
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            aria-label="Filter plugins"
            placeholder="Filter by name or state"
            className="h-6 min-w-0 flex-1 bg-transparent text-xs outline-none placeholder:text-fg-subtle"
          />
        </label>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {!loaded && (
          <p className="flex items-center gap-2 p-3 text-xs text-fg-subtle">
            <Spinner /> Loading plugins…
          </p>
        )}
        {loadError && <p className="p-3 text-xs text-bad">Could not list plugins: {loadError}</p>}
        {loaded && !loadError && order.length === 0 && (
          <p className="p-4 text-xs text-fg-muted">
            No plugins yet. Use Install plugin…, or drop a plugin folder, .zip, .mcpb or .dxt file on the window.
          </p>
        )}
        {loaded && order.length > 0 && shown.length === 0 && (
          <p className="p-3 text-xs text-fg-subtle">No plugin matches “{filter}”.</p>
        )}
        <ul>
          {shown.map((id) => (
            <PluginRow key={id} id={id} />
          ))}
        </ul>
      </div>
      <footer className="flex items-center gap-2 border-t border-line px-3 py-1.5 text-[11px] text-fg-subtle">
        <InstallButton size="sm" />
        <Button size="sm" variant="ghost" icon="search" onClick={openCatalog}>
          Browse catalog
        </Button>
        <span className="min-w-0 flex-1 truncate" title="or drop a folder, .zip, .mcpb or .dxt anywhere">
          or drop a package
        </span>
      </footer>
    </section>
  );
}
