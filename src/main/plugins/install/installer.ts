/**
 * Installing and removing plugins in the data directory: a preview of what a package is and asks
 * for, an install that stages the package, checks it whole and only then moves it into place, and
 * an uninstall that takes the folder, the decisions, the secrets and the data with it. Every
 * refusal names what was wrong; a refused or failed install leaves the data directory as it was.
 * The registry decides whether an install may replace what is there, and binds the result.
 */
import path from 'node:path';
import { requestedCapabilities } from '../../../shared/capabilities';
import { failure, type Failure, type Done, type Outcome } from '../../../shared/failures';
import type { PluginSpec, SettingSpec, ToolSpec } from '../../../shared/plugin';
import type { InstallTrialView } from '../../../shared/views';
import type { AuditLog } from '../audit';
import type { PluginBindings } from '../registry/bindings';
import { loadRecord, type PluginRecord } from '../registry/discovery';
import { installStaged, removeInstalled, type InstallOutcome } from './commit';
import { DEFAULT_LIMITS, type InstallLimits } from './limits';
import { stage, type Staged } from './stage';
import type { DataPaths } from '../data-paths';
import type { RecordBook } from '../registry/records';
import type { SecretStore } from '../secrets';
import type { StateStore } from '../registry/state';

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
}

export interface PreviewOptions {
  /** The trial launch's deadline (trial.ts DEFAULT_TRIAL_MS when not given). */
  trialMs?: number;
}

export type GrantChoice = 'requested' | 'none' | string[];

export type { InstallOutcome } from './commit';

export class Installer {
  private readonly limits: InstallLimits;

  constructor(
    private readonly paths: DataPaths,
    private readonly state: StateStore,
    private readonly secrets: SecretStore,
    private readonly audit: AuditLog,
    private readonly records: RecordBook,
    private readonly bindings: PluginBindings,
    limits: Partial<InstallLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /**
   * What a package is and asks for, and how a trial launch of it went (bindings.trial): run from
   * the staged copy, so the source (a folder the person picked, an upload) is never run in place
   * or written to, and it stays as it is for the install that follows. The staged copy goes.
   */
  async preview(source: string, opts: PreviewOptions = {}): Promise<Outcome<{ preview: InstallPreview }>> {
    const staged = await stage(source, this.paths, this.limits);
    if (!staged.ok) return failure('install_refused', staged.message);
    try {
      const tried = await this.bindings.trial(staged.spec, opts.trialMs);
      return { ok: true, preview: { ...describe(staged, this.records.get(staged.spec.id)), ...tried } };
    } finally {
      staged.discard();
    }
  }

  /** Installs (or, with `replace`, upgrades) from a folder, zip or bundle; audited either way. */
  async install(
    source: string,
    opts: { replace?: boolean; grant?: GrantChoice } = {},
  ): Promise<InstallOutcome | Failure> {
    const prepared = await this.prepare(source, opts.replace === true);
    if (!prepared.ok) return this.audit.refused('install', prepared.id, prepared.failure, { source });
    const { staged, upgrading } = prepared;
    const id = staged.spec.id;
    const existing = this.records.get(id);
    if (upgrading) await this.bindings.unbind(id);
    const outcome = await this.commit(staged, source, opts.grant ?? 'requested', upgrading);
    if (!outcome.ok) {
      if (upgrading && existing?.spec) await this.bindings.bind(existing.spec);
      return this.audit.refused(upgrading ? 'upgrade' : 'install', id, outcome, { source });
    }
    const rec = loadRecord(this.paths.plugin(id), 'installed');
    if (rec.spec) await this.bindings.bind(rec.spec);
    this.records.set(rec, upgrading ? 'upgraded' : 'installed');
    this.audit.done(upgrading ? 'upgrade' : 'install', id, outcome.detail, { source, capabilities: outcome.granted });
    return staged.warnings.length ? { ...outcome, warnings: staged.warnings } : outcome;
  }

  async uninstall(id: string): Promise<Done> {
    const rec = this.records.get(id);
    if (!rec) return this.audit.refused('uninstall', id, failure('not_found', `no plugin "${id}" is installed`));
    if (rec.source === 'bundled') {
      return this.audit.refused(
        'uninstall',
        id,
        failure('invalid_state', `${id} is bundled with the app and cannot be uninstalled; disable it instead`),
      );
    }
    await this.bindings.unbind(id);
    const r = await removeInstalled(rec.id, rec.dir, { paths: this.paths, state: this.state, secrets: this.secrets });
    if (!r.ok) {
      // Still installed: put it back in the host as it was.
      if (rec.spec) await this.bindings.bind(rec.spec);
      return this.audit.refused('uninstall', id, failure('io_error', r.message));
    }
    this.records.delete(id, 'uninstalled');
    return this.audit.done('uninstall', id, `removed ${rec.dir}, its settings, secrets and data`);
  }

  /**
   * Stages `source` and checks it may be installed beside what is there; the caller commits or
   * discards it. A refusal names the id it was for, when the package got far enough to have one.
   */
  private async prepare(
    source: string,
    replace: boolean,
  ): Promise<{ ok: true; staged: Staged; upgrading: boolean } | { ok: false; failure: Failure; id: string }> {
    const staged = await stage(source, this.paths, this.limits);
    if (!staged.ok) return { ok: false, failure: failure('install_refused', staged.message), id: '?' };
    const id = staged.spec.id;
    const rec = this.records.get(id);
    const refuse = (message: string): { ok: false; failure: Failure; id: string } => {
      staged.discard();
      return { ok: false, failure: failure('install_refused', message), id };
    };
    if (rec?.source === 'bundled') return refuse(`"${id}" is the id of a bundled plugin; choose another id`);
    const upgrading = rec !== undefined && rec.source === 'installed';
    if (upgrading && !replace)
      return refuse(
        `a plugin "${id}" is installed already (version ${rec.spec?.version ?? '?'}); replace it to upgrade`,
      );
    return { ok: true, staged, upgrading };
  }

  /** Moves a prepared install into place and records it, with the grants chosen. */
  private async commit(
    staged: Staged,
    source: string,
    grant: GrantChoice,
    upgrading: boolean,
  ): Promise<InstallOutcome | Outcome<never>> {
    const requested = requestedCapabilities(staged.spec);
    const grants =
      grant === 'none' ? [] : Array.isArray(grant) ? grant.filter((g) => requested.includes(g)) : requested;
    const outcome = await installStaged(staged, {
      paths: this.paths,
      state: this.state,
      source: path.resolve(source),
      grants,
      upgrade: upgrading,
    });
    if (!outcome.ok) return failure('io_error', outcome.message);
    // A fresh install starts without secrets, even ones an earlier uninstall elsewhere left behind.
    if (!upgrading) await this.secrets.removeAll(staged.spec.id).catch(() => undefined);
    return outcome;
  }
}

function describe(staged: Staged, existing: PluginRecord | undefined): Omit<InstallPreview, 'command' | 'trial'> {
  const s = staged.spec;
  const p: Omit<InstallPreview, 'command' | 'trial'> = {
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
