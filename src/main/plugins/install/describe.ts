/**
 * What an install preview says of a staged package: its identity, tools and requests, the
 * package its runner fetches (installed into the staged copy, or at confirmation), the folders
 * and files its arguments and environment name (offered as grants), and what may be granted
 * though it was not requested. Pure: the installer stages, installs and tries.
 */
import { GRANTABLE_UNREQUESTED, requestedCapabilities } from '../../../shared/capabilities';
import type { PluginSpec, SettingSpec, ToolSpec } from '../../../shared/plugin';
import type { InstallTrialView, PackageView, PathGrantView } from '../../../shared/views';
import { findPaths } from '../grants/paths';
import { describeRequest, type PackageStepOutcome } from '../packages/install';
import type { PluginRecord } from '../registry/discovery';

export interface InstallPreview {
  id: string;
  name: string;
  version: string;
  description: string;
  dialect: PluginSpec['dialect'];
  tools: ToolSpec[];
  requested: string[];
  requiredSettings: SettingSpec[];
  /** Set when a plugin with this id is installed already. */
  replaces?: { version: string };
  warnings: string[];
  /** The command that will run, or the remote server's URL. */
  command: string[];
  trial: InstallTrialView;
  /** The tools the trial launch announced at its handshake (an update compares them with the installed ones). */
  announced?: ToolSpec[];
  package: PackageView | null;
  paths: PathGrantView[];
  /** Capabilities not requested that the person may grant anyway. */
  unrequested: string[];
}

export function packageView(outcome: PackageStepOutcome): PackageView | null {
  if (outcome.ok === 'later') {
    const r = outcome.request;
    return { ecosystem: r.ecosystem, spec: r.spec, runner: r.runner, status: 'later', message: outcome.reason };
  }
  if (outcome.ok !== true || !outcome.record) return null;
  const r = outcome.record;
  return {
    ecosystem: r.ecosystem,
    spec: r.spec,
    runner: r.runner,
    status: 'installed',
    version: r.version_installed,
    integrity: r.integrity,
    packages: r.packages,
    message: `Installed into the plugin’s folder (${r.packages} package${r.packages === 1 ? '' : 's'} in all, each pinned in its lock): it starts from there, without the network.`,
  };
}

/** The paths a spec's command and environment name, as grants (its own folder and the data directory left out). */
export function offeredPaths(spec: PluginSpec, dataRoot: string): PathGrantView[] {
  if (spec.remote) return [];
  return findPaths(spec.command, spec.env, { dataRoot, pluginDir: spec.dir });
}

export function describeStaged(
  spec: PluginSpec,
  warnings: string[],
  existing: PluginRecord | undefined,
  pkg: PackageStepOutcome,
  dataRoot: string,
): Omit<InstallPreview, 'command' | 'trial'> {
  const requested = requestedCapabilities(spec);
  const p: Omit<InstallPreview, 'command' | 'trial'> = {
    id: spec.id,
    name: spec.name,
    version: spec.version,
    description: spec.description,
    dialect: spec.dialect,
    tools: spec.tools,
    requested,
    requiredSettings: spec.settings.filter((x) => x.required && x.default === undefined),
    warnings,
    package: packageView(pkg),
    paths: offeredPaths(spec, dataRoot),
    unrequested: GRANTABLE_UNREQUESTED.filter((c) => !requested.includes(c)),
  };
  if (existing?.spec) p.replaces = { version: existing.spec.version };
  return p;
}

export { describeRequest };
