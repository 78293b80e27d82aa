/**
 * What a person can do about a failure, by its code: a plugin that needs settings gets "Open
 * settings" (its Settings tab, focused), a disabled one "Enable", a withheld secret "Open
 * permissions", one that failed for want of the network or a folder it is given "Grant …" (which
 * grants it and starts the plugin again), a remote server that wants a sign-in "Sign in", a
 * switched-off tool "Switch it on". Shown under the failure in the chat and in the plugin panel.
 * A failure that blames one setting (its stderr named it) links to that setting; a call that timed
 * out says what next.
 */
import type { JSX } from 'react';
import type { Failure } from '../../../../shared/failures';
import { Button } from '../../components/Button';
import { grantMissing, setExposed, showDetail, usePluginDetail, type DetailTab } from '../../stores/plugin-detail';
import { setPluginEnabled, usePlugins } from '../../stores/plugins';
import { signIn } from '../../stores/sign-in';
import { togglePanel } from '../../stores/ui';

function open(pluginId: string, tab: DetailTab, setting?: string): void {
  togglePanel(true);
  showDetail(pluginId, tab, setting);
}

export function FailureActions({
  failure,
  pluginId,
  tool,
}: {
  failure: Failure;
  pluginId: string | undefined;
  /** The tool the failed call was for, where there was one. */
  tool?: string | undefined;
}): JSX.Element | null {
  const name = usePlugins((s) => (pluginId ? s.byId[pluginId]?.name : undefined)) ?? pluginId;
  const enabled = usePlugins((s) => (pluginId ? s.byId[pluginId]?.enabled : undefined));
  const blamed = failure.details?.setting;
  const settingTitle = usePluginDetail((s) =>
    pluginId && blamed ? s.details[pluginId]?.settings.find((x) => x.key === blamed)?.title : undefined,
  );
  if (!pluginId) return null;
  let action: JSX.Element | null = null;
  if (blamed && !failure.details?.missingGrant) {
    action = (
      <Button size="sm" icon="settings" onClick={() => open(pluginId, 'settings', blamed)}>
        {`Open setting “${settingTitle || blamed}”`}
      </Button>
    );
  } else if (failure.code === 'timeout') {
    action = (
      <>
        <p className="basis-full text-xs text-fg-muted">
          {`${name} may be stuck: Plugboard stopped waiting. Try again; if it keeps happening, its log may say why.`}
        </p>
        <Button size="sm" icon="terminal" onClick={() => open(pluginId, 'log')}>
          {`Open ${name}’s log`}
        </Button>
      </>
    );
  } else if (failure.code === 'settings_missing') {
    action = (
      <Button size="sm" icon="settings" onClick={() => open(pluginId, 'settings')}>
        Open settings
      </Button>
    );
  } else if (failure.code === 'disabled' && enabled !== true) {
    action = (
      <Button size="sm" icon="power" onClick={() => void setPluginEnabled(pluginId, true)}>
        {`Enable ${name}`}
      </Button>
    );
  } else if (failure.code === 'sign_in_required') {
    action = (
      <Button size="sm" variant="primary" icon="key" onClick={() => void signIn(pluginId)}>
        {`Sign in to ${name}`}
      </Button>
    );
  } else if (failure.details?.missingGrant) {
    const g = failure.details.missingGrant;
    action = (
      <Button size="sm" icon="shield" onClick={() => void grantMissing(pluginId, g)}>
        {g.kind === 'net' ? 'Grant the network' : `Grant ${g.path} (${g.write ? 'read-write' : 'read-only'})`}
      </Button>
    );
  } else if (failure.code === 'limit_exceeded') {
    action = (
      <Button size="sm" icon="shield" onClick={() => open(pluginId, 'permissions')}>
        Open limits
      </Button>
    );
  } else if (failure.code === 'tool_not_exposed' && tool) {
    // A switched-off tool the person called: one click switches it on, then they send again.
    action = (
      <Button size="sm" icon="power" onClick={() => void setExposed(pluginId, tool, true)}>
        Switch it on
      </Button>
    );
  } else if (failure.code === 'capability_not_allowed') {
    action = (
      <Button size="sm" icon="shield" onClick={() => open(pluginId, 'permissions')}>
        Open permissions
      </Button>
    );
  }
  return action && <div className="mt-2 flex flex-wrap gap-1.5">{action}</div>;
}
