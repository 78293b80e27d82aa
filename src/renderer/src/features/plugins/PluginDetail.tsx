/**
 * A plugin's expanded detail: why it is in its state, lifecycle buttons, and tabs for its tools,
 * permissions, settings, log and facts. The buttons' accessible names carry the plugin id
 * ("Restart todo"); stopping a plugin is "Shut down", so no control but the chat's own is named
 * like "Stop" (a name search for "Stop" would find both).
 */
import { useState, type JSX } from 'react';
import { Button } from '../../components/Button';
import { FailureBlock } from '../../components/FailureBlock';
import { Spinner } from '../../components/Spinner';
import { Tabs } from '../../components/Tabs';
import { setDetailTab, usePluginDetail, type DetailTab } from '../../stores/plugin-detail';
import { runLifecycle, usePlugins } from '../../stores/plugins';
import { rollbackPlugin } from '../../stores/updates';
import { AboutTab } from './AboutTab';
import { FailureActions } from './FailureActions';
import { HealthHistory } from './HealthHistory';
import { LogTab } from './LogTab';
import { PermissionsTab } from './PermissionsTab';
import { SettingsTab } from './SettingsTab';
import { SignInSection } from './SignInSection';
import { shownState } from './health';
import { ToolsTab } from './ToolsTab';
import { UninstallDialog } from './UninstallDialog';

export function PluginDetailView({ id, domId }: { id: string; domId: string }): JSX.Element | null {
  const p = usePlugins((s) => s.byId[id]);
  const busy = usePlugins((s) => s.busy[id]);
  const detail = usePluginDetail((s) => s.details[id]);
  const error = usePluginDetail((s) => s.errors[id]);
  const tab = usePluginDetail((s) => s.tab);
  const focusTick = usePluginDetail((s) => s.focusTick);
  const [confirming, setConfirming] = useState(false);
  if (!p) return null;
  const running = !['stopped', 'crashed', 'failed', 'disabled'].includes(p.health.state);
  const exposed = detail ? detail.tools.filter((t) => t.exposed).length : p.exposedCount;
  const total = detail ? detail.tools.length : p.toolCount;
  return (
    <div id={domId} className="border-t border-line bg-bg">
      <div className="space-y-2 px-3 py-2.5">
        {p.description && <p className="text-xs text-fg-muted">{p.description}</p>}
        {detail?.signIn && <SignInSection id={id} view={detail.signIn} />}
        <p className="text-xs">
          <span className="text-fg-subtle">State: </span>
          <span className="text-fg">{shownState(p.health)}</span>
          {p.health.reason && <span className="text-fg-muted"> — {p.health.reason}</span>}
        </p>
        {p.health.failure && (
          <FailureBlock
            failure={p.health.failure}
            stderrOpen={false}
            actions={<FailureActions failure={p.health.failure} pluginId={id} />}
          />
        )}
        <HealthHistory notes={p.health.recent} />
        <div className="flex flex-wrap items-center gap-1.5">
          <Button
            size="sm"
            icon="play"
            aria-label={`Start ${id}`}
            disabled={!!busy || running || !p.enabled}
            onClick={() => void runLifecycle(id, 'start')}
          >
            Start
          </Button>
          <Button
            size="sm"
            icon="power"
            aria-label={`Shut down ${id}`}
            disabled={!!busy || !running}
            onClick={() => void runLifecycle(id, 'stop')}
          >
            Shut down
          </Button>
          <Button
            size="sm"
            icon="restart"
            aria-label={`Restart ${id}`}
            disabled={!!busy || !p.enabled}
            onClick={() => void runLifecycle(id, 'restart')}
          >
            Restart
          </Button>
          {busy && busy !== 'enable' && <Spinner className="ml-1 text-fg-subtle" />}
          <span className="flex-1" />
          {detail?.previous && (
            <Button
              size="sm"
              icon="arrowDown"
              aria-label={`Roll ${id} back to ${detail.previous.version}`}
              title={`Put back ${detail.previous.version}, the version the last update replaced`}
              disabled={!!busy}
              onClick={() => void rollbackPlugin(id, p.name, detail.previous?.version ?? '')}
            >
              Roll back to {detail.previous.version}
            </Button>
          )}
          {p.source === 'installed' && (
            <Button
              size="sm"
              variant="danger"
              icon="trash"
              aria-label={`Uninstall ${id}`}
              disabled={!!busy}
              onClick={() => setConfirming(true)}
            >
              Uninstall
            </Button>
          )}
        </div>
      </div>
      {error && !detail && <p className="px-3 pb-2 text-xs text-bad">Could not load the details: {error}</p>}
      {detail === undefined && !error && (
        <p className="flex items-center gap-2 px-3 pb-3 text-xs text-fg-subtle">
          <Spinner /> Loading details…
        </p>
      )}
      {detail === null && (
        <p className="px-3 pb-3 text-xs text-fg-subtle">No details: the plugin is no longer known.</p>
      )}
      {detail && (
        <Tabs<DetailTab>
          label={`${p.name} details`}
          value={tab}
          onChange={setDetailTab}
          focusKey={focusTick}
          tabs={[
            {
              key: 'tools',
              label: (
                <>
                  Tools <span className="tabular-nums text-fg-subtle">{`${exposed}/${total}`}</span>
                </>
              ),
            },
            { key: 'permissions', label: 'Permissions' },
            {
              key: 'settings',
              label:
                detail.settings.length > 0 ? (
                  <>
                    Settings <span className="text-fg-subtle tabular-nums">{detail.settings.length}</span>
                  </>
                ) : (
                  'Settings'
                ),
            },
            { key: 'log', label: 'Log' },
            { key: 'about', label: 'About' },
          ]}
        >
          {tab === 'tools' && <ToolsTab detail={detail} />}
          {tab === 'permissions' && <PermissionsTab detail={detail} />}
          {tab === 'settings' && <SettingsTab detail={detail} />}
          {tab === 'log' && <LogTab id={id} />}
          {tab === 'about' && <AboutTab detail={detail} />}
        </Tabs>
      )}
      {confirming && <UninstallDialog id={id} name={p.name} onClose={() => setConfirming(false)} />}
    </div>
  );
}
