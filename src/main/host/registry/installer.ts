/**
 * Installing and removing plugins in the data directory: a preview of what a package is and asks
 * for, an install that stages the package, checks it whole and only then moves it into place, and
 * an uninstall that takes the folder, the decisions, the secrets and the data with it. Every
 * refusal names what was wrong; a refused or failed install leaves the data directory as it was.
 * The registry decides whether an install may replace what is there, and binds the result.
 */
import path from 'node:path';
import { requestedCapabilities } from '../../../shared/capabilities';
import { failure, type Failure, type Outcome } from '../../../shared/failures';
import type { PluginSpec, SettingSpec, ToolSpec } from '../../../shared/model';
import type { PluginRecord } from './discovery';
import { installStaged, removeInstalled, type InstallOutcome } from './install/commit';
import { DEFAULT_LIMITS, type InstallLimits } from './install/limits';
import { stage, type Staged } from './install/stage';
import type { DataPaths } from './paths';
import type { SecretStore } from './secrets';
import type { StateStore } from './state';

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
}

export type GrantChoice = 'requested' | 'none' | string[];

export type { InstallOutcome } from './install/commit';

export class Installer {
  private readonly limits: InstallLimits;

  constructor(
    private readonly paths: DataPaths,
    private readonly state: StateStore,
    private readonly secrets: SecretStore,
    limits: Partial<InstallLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  async preview(source: string, existing: (id: string) => PluginRecord | undefined): Promise<Outcome<{ preview: InstallPreview }>> {
    const staged = await stage(source, this.paths, this.limits);
    if (!staged.ok) return failure('install_refused', staged.message);
    try {
      return { ok: true, preview: describe(staged, existing(staged.spec.id)) };
    } finally {
      staged.discard();
    }
  }

  /**
   * Stages `source` and checks it may be installed beside what is there; the caller commits or
   * discards it. A refusal names the id it was for, when the package got far enough to have one.
   */
  async prepare(
    source: string,
    existing: (id: string) => PluginRecord | undefined,
    replace: boolean,
  ): Promise<{ ok: true; staged: Staged; upgrading: boolean } | { ok: false; failure: Failure; id: string }> {
    const staged = await stage(source, this.paths, this.limits);
    if (!staged.ok) return { ok: false, failure: failure('install_refused', staged.message), id: '?' };
    const id = staged.spec.id;
    const rec = existing(id);
    const refuse = (message: string): { ok: false; failure: Failure; id: string } => {
      staged.discard();
      return { ok: false, failure: failure('install_refused', message), id };
    };
    if (rec?.source === 'bundled') return refuse(`"${id}" is the id of a bundled plugin; choose another id`);
    const upgrading = rec !== undefined && rec.source === 'installed';
    if (upgrading && !replace) return refuse(`a plugin "${id}" is installed already (version ${rec.spec?.version ?? '?'}); replace it to upgrade`);
    return { ok: true, staged, upgrading };
  }

  /** Moves a prepared install into place and records it, with the grants chosen. */
  async commit(staged: Staged, source: string, grant: GrantChoice, upgrading: boolean): Promise<InstallOutcome | Outcome<never>> {
    const requested = requestedCapabilities(staged.spec);
    const grants = grant === 'none' ? [] : Array.isArray(grant) ? grant.filter((g) => requested.includes(g)) : requested;
    const outcome = await installStaged(staged, { paths: this.paths, state: this.state, source: path.resolve(source), grants, upgrade: upgrading });
    if (!outcome.ok) return failure('io_error', outcome.message);
    // A fresh install starts without secrets, even ones an earlier uninstall elsewhere left behind.
    if (!upgrading) await this.secrets.removeAll(staged.spec.id).catch(() => undefined);
    return outcome;
  }

  async uninstall(rec: PluginRecord): Promise<Outcome<{ detail: string }>> {
    const r = await removeInstalled(rec.id, rec.dir, { paths: this.paths, state: this.state, secrets: this.secrets });
    if (!r.ok) return failure('io_error', r.message);
    return { ok: true, detail: `removed ${rec.dir}, its settings, secrets and data` };
  }
}

function describe(staged: Staged, existing: PluginRecord | undefined): InstallPreview {
  const s = staged.spec;
  const p: InstallPreview = {
    id: s.id,
    name: s.name,
    version: s.version,
    description: s.description,
    dialect: s.dialect,
    tools: s.tools,
    requested: requestedCapabilities(s),
    requiredSettings: s.settings.filter((x) => x.required && x.default === undefined),
    warnings: staged.warnings,
  };
  if (existing?.spec) p.replaces = { version: existing.spec.version };
  return p;
}
