/**
 * What an install preview says of a staged package: its identity, tools and requests, the
 * package its runner fetches (installed into the staged copy, or at confirmation), the folders
 * and files its arguments and environment name (offered as grants), and what may be granted
 * though it was not requested, and who made it (an MCPB bundle's author, license and picture, read
 * from the staged folder). The installer stages, installs and tries.
 */
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_ICON_BYTES, type IconView } from '../../../shared/apps';
import { GRANTABLE_UNREQUESTED, requestedCapabilities } from '../../../shared/capabilities';
import type { PluginSpec, SettingSpec, ToolSpec } from '../../../shared/plugin';
import type { InstallPreviewView, InstallTrialView, PackageView, PathGrantView } from '../../../shared/views';
import { isInside } from '../../fs';
import { findPaths } from '../grants/paths';
import { describeRequest, type PackageStepOutcome } from '../packages/install';
import type { PluginRecord } from '../registry/discovery';
import type { SettingValue } from '../../host';
import { settingDefaults } from './setting-defaults';

export interface InstallPreview {
  id: string;
  name: string;
  version: string;
  description: string;
  about?: InstallPreviewView['about'];
  dialect: PluginSpec['dialect'];
  tools: ToolSpec[];
  requested: string[];
  requiredSettings: SettingSpec[];
  /** Every setting it declares, for the preview's form, and their defaults as they would be used. */
  settings: SettingSpec[];
  settingDefaults: Record<string, SettingValue>;
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
    settings: spec.settings,
    settingDefaults: settingDefaults(spec),
    warnings,
    package: packageView(pkg),
    paths: offeredPaths(spec, dataRoot),
    unrequested: GRANTABLE_UNREQUESTED.filter((c) => !requested.includes(c)),
  };
  if (existing?.spec) p.replaces = { version: existing.spec.version };
  const about = aboutOf(spec);
  if (about) p.about = about;
  return p;
}

export { describeRequest };

/** The package's picture, by its magic bytes, as a `data:` URI: only a bitmap inside the plugin's folder, and small. */
const PICTURES: Array<[string, (b: Buffer) => boolean]> = [
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  [
    'image/webp',
    (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  ],
];

function pictureOf(dir: string, rel: string): IconView | undefined {
  const file = path.resolve(dir, rel);
  if (!isInside(dir, file)) return undefined;
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.size > MAX_ICON_BYTES) return undefined;
    const bytes = readFileSync(file);
    const type = PICTURES.find(([, is]) => is(bytes))?.[0];
    if (!type) return undefined;
    const uri = `data:${type};base64,${bytes.toString('base64')}`;
    return { light: uri, dark: uri };
  } catch {
    return undefined;
  }
}

function aboutOf(spec: PluginSpec): InstallPreviewView['about'] | undefined {
  const a = spec.about;
  if (!a) return undefined;
  const icon = a.icon ? pictureOf(spec.dir, a.icon) : undefined;
  const { icon: _file, ...words } = a;
  const about = { ...words, ...(icon ? { icon } : {}) };
  return Object.keys(about).length > 0 ? about : undefined;
}
