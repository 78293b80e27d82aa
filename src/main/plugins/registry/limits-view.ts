/**
 * What a plugin may consume, for the plugin panel: each limit's
 * value and where it comes from (the defaults, its manifest, the person), and how limits are held
 * on this computer.
 */
import { formatLimit, LIMIT_KEY_OF, LIMIT_TITLES, type LimitName } from '../../../shared/limits';
import type { PluginSpec } from '../../../shared/plugin';
import type { LimitsView } from '../../../shared/views';
import { defaultLimits, manifestLimits, type SandboxSupport } from '../../host';
import type { PluginState } from './state';

export function limitsView(spec: PluginSpec | undefined, state: PluginState, support: SandboxSupport): LimitsView {
  const defaults = defaultLimits();
  const items = (Object.keys(defaults) as LimitName[]).map((name) => {
    const mine = state.limits?.[name];
    // A manifest may lower a limit, never raise it (manifestLimits): one it asked to raise is the default's.
    const asked = manifestLimits(spec?.limits)?.[name];
    const theirs = asked === defaults[name] ? undefined : asked;
    const value = mine ?? theirs ?? defaults[name];
    return {
      name,
      key: LIMIT_KEY_OF[name],
      title: LIMIT_TITLES[name],
      value,
      shown: formatLimit(name, value),
      source:
        mine !== undefined ? ('yours' as const) : theirs !== undefined ? ('manifest' as const) : ('default' as const),
    };
  });
  const enforcement = support.available
    ? (support.limits?.note ?? 'the sizes of its /tmp and of its data folder')
    : null;
  return { enforcement, items };
}
