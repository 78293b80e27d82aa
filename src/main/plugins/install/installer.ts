/**
 * Installing and removing plugins in the data directory. A preview stages the package once (its
 * copy unpacked and checked, its runner's package installed into it, pinned, in the sandbox with
 * the network), tries it, and keeps that staged copy under a token; confirming installs exactly
 * that copy, never the source again, so what was previewed is what is installed even if the
 * source folder changed meanwhile. An install without a preview (the CLI, an import) stages,
 * installs the package and commits in one go. A newly installed persistent plugin starts, as it
 * would at the next start of the app. Every refusal names what was wrong; a refused or failed
 * install leaves the data directory as it was; an uninstall takes the folder, the decisions, the
 * secrets and the data with it. The registry decides whether an install may replace what is there,
 * and binds the result. An update's rollback swaps the kept previous version back (previous.ts).
 */
/* eslint-disable max-lines -- one whole concern: a plugin's way into and out of the data directory (preview, install, upgrade, rollback, uninstall) */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { GRANTABLE_UNREQUESTED, requestedCapabilities, type FolderGrant } from '../../../shared/capabilities';
import { failure, type Failure, type Done, type Outcome } from '../../../shared/failures';
import type { PluginSpec, ToolSpec } from '../../../shared/plugin';
import type { InstallTrialView } from '../../../shared/views';
import type { AuditLog } from '../audit';
import type { DataPaths } from '../data-paths';
import { ID_PATTERN, loadManifest, RESERVED_IDS, writeInstalledAs } from '../manifests';
import { installPackages, type PackageStepOutcome } from '../packages/install';
import { readRecord } from '../packages/record';
import type { PluginBindings, TrialChoices } from '../registry/bindings';
import { reviewedTools } from '../registry/definitions';
import { loadRecord } from '../registry/discovery';
import type { RecordBook } from '../registry/records';
import type { StateStore } from '../registry/state';
import type { SecretStore } from '../secrets';
import { installStaged, removeInstalled, type InstallOutcome } from './commit';
import { describeStaged, type InstallPreview } from './describe';
import { DEFAULT_LIMITS, type InstallLimits } from './limits';
import { swapWithPrevious } from './previous';
import { stage, type Staged } from './stage';

export type { InstallPreview } from './describe';
export type { InstallOutcome } from './commit';

export interface PreviewOptions {
  /** The trial launch's deadline (trial.ts DEFAULT_TRIAL_MS when not given). */
  trialMs?: number;
  /** Each line of the package install step, as it comes. */
  onProgress?: (line: string) => void;
}

export type GrantChoice = 'requested' | 'none' | string[];

export interface CommitOptions {
  replace?: boolean;
  grant?: GrantChoice;
  /**
   * Folders and files granted by path; default none. The paths a manifest names are offered in the
   * preview, and granted only when the person picks them: the plugin's author chose them.
   */
  folders?: FolderGrant[];
  /** Capabilities granted besides `grant`'s, requested or not (`net` for a server that needs it). */
  extra?: string[];
  /** Requested capabilities not granted whatever `grant` says (an import's `net` the person did not tick). */
  withhold?: string[];
  /** Installs it under this id instead of its manifest's (manifests/installed-as.ts): beside one that has that id. */
  id?: string;
  /** The tools its preview's trial announced (Held.announced): recorded as reviewed at a fresh install. */
  announced?: ToolSpec[];
  /** Folders granted besides `folders` (or the offered ones). */
  addFolders?: FolderGrant[];
  onProgress?: (line: string) => void;
}

export interface InstallerOptions {
  limits?: Partial<InstallLimits>;
  /** Plugboard's environment: its PATH finds npm and Python for the package step, its HOME their settings. */
  parentEnv?: NodeJS.ProcessEnv;
  /** `false`: plugins run unsandboxed by choice (and so does the package step, once confirmed). */
  sandbox?: boolean;
  /** Start a newly installed persistent plugin (the app does; the CLI, which exits at once, does not). */
  autostart?: boolean;
}

/** A preview's staged copy is kept this long for its confirmation, then removed. */
export const PREVIEW_KEPT_MS = 30 * 60_000;

interface Held {
  staged: Staged;
  source: string;
  pkg: PackageStepOutcome;
  timer: NodeJS.Timeout;
  /** A trial of it tried again (tryAgain), while it runs. */
  trying?: Promise<unknown>;
  /**
   * The tools its last trial announced (an MCP server's): what the person was shown, recorded
   * as the definitions their decisions apply to, so a server that shows other tools once it runs
   * installed (red team A12: clean in the trial, poisoned after) asks again with the diff.
   */
  announced?: ToolSpec[];
}

/**
 * What a trial announced that a fresh install records as reviewed: an MCP server's tools, which
 * are what it will offer when it runs. Other protocols' tools come from their manifests once
 * installed, whatever their handshake lists (a G-Assist plugin's `initialize` names its commands
 * in other words): recorded, they would read as changed at the first real run.
 */
function announcedOf(spec: PluginSpec, announced: ToolSpec[] | undefined): { announced?: ToolSpec[] } {
  return spec.dialect === 'mcp' && announced ? { announced } : {};
}

export class Installer {
  private readonly limits: InstallLimits;
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly paths: DataPaths,
    private readonly state: StateStore,
    private readonly secrets: SecretStore,
    private readonly audit: AuditLog,
    private readonly records: RecordBook,
    private readonly bindings: PluginBindings,
    private readonly opts: InstallerOptions = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...(opts.limits ?? {}) };
  }

  /**
   * What a package is and asks for, with its runner's package installed into the staged copy and
   * a trial launch of it (bindings.trial) from there: the source (a folder the person picked, an
   * upload) is never run in place or written to. The staged copy is kept under the token the
   * answer carries, for `commitPreview`, until it is cancelled or PREVIEW_KEPT_MS pass.
   */
  async preview(
    source: string,
    opts: PreviewOptions = {},
  ): Promise<Outcome<{ preview: InstallPreview; token: string }>> {
    const staged = await stage(source, this.paths, this.limits);
    if (!staged.ok) return failure('install_refused', staged.message);
    const pkg = await this.packageStep(staged, false, opts.onProgress);
    if (pkg.ok === false) {
      staged.discard();
      return failure('install_refused', stepFailure(pkg));
    }
    try {
      const tried = await this.bindings.trial(staged.spec, opts.trialMs);
      const described = describeStaged(
        staged.spec,
        staged.warnings,
        this.records.get(staged.spec.id),
        pkg,
        this.paths.root,
      );
      const token = randomUUID();
      const timer = setTimeout(() => this.cancelPreview(token), PREVIEW_KEPT_MS);
      timer.unref();
      this.held.set(token, { staged, source, pkg, timer, ...announcedOf(staged.spec, tried.announced) });
      return { ok: true, token, preview: { ...described, ...tried } };
    } catch (e) {
      staged.discard();
      throw e;
    }
  }

  /**
   * Tries a preview's staged copy again with the person's values and choices (bindings.trial), so
   * a plugin that needs settings or a grant is seen to start before it is installed. The preview
   * stays as it was: its commit installs the same staged copy.
   */
  async tryAgain(
    token: string,
    chosen: TrialChoices,
    trialMs?: number,
  ): Promise<Outcome<{ command: string[]; trial: InstallTrialView; announced?: ToolSpec[] }>> {
    const h = this.held.get(token);
    if (!h) return failure('invalid_state', 'this preview has expired or was cancelled; preview the plugin again');
    if (h.trying) return failure('invalid_state', 'it is being tried already: wait for that trial');
    const trying = this.bindings.trial(h.staged.spec, trialMs, chosen);
    h.trying = trying;
    try {
      const tried = await trying;
      const announced = announcedOf(h.staged.spec, tried.announced).announced;
      if (announced) h.announced = announced;
      return { ok: true, ...tried };
    } finally {
      delete h.trying;
    }
  }

  /** Installs the staged copy a preview kept, exactly as it was previewed; audited either way. */
  async commitPreview(token: string, opts: CommitOptions = {}): Promise<InstallOutcome | Failure> {
    const h = this.held.get(token);
    if (!h) return failure('invalid_state', 'this preview has expired or was cancelled; preview the plugin again');
    this.held.delete(token);
    clearTimeout(h.timer);
    // A trial of the staged copy still running ends first: the install moves that copy.
    await h.trying?.catch(() => undefined);
    return this.finish(h.staged, h.source, h.pkg, { ...opts, ...(h.announced ? { announced: h.announced } : {}) });
  }

  /** Drops a preview's staged copy. */
  cancelPreview(token: string): void {
    const h = this.held.get(token);
    if (!h) return;
    this.held.delete(token);
    clearTimeout(h.timer);
    h.staged.discard();
  }

  /** Drops every preview still kept (the service is closing). */
  dispose(): void {
    for (const token of [...this.held.keys()]) this.cancelPreview(token);
  }

  /** Installs (or, with `replace`, upgrades) from a folder, zip or bundle, without a preview; audited either way. */
  async install(source: string, opts: CommitOptions = {}): Promise<InstallOutcome | Failure> {
    const staged = await stage(source, this.paths, this.limits);
    if (!staged.ok) return this.audit.refused('install', '?', failure('install_refused', staged.message), { source });
    return this.finish(staged, source, null, opts);
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
   * Runs the package step on a staged copy (packages/install.ts) and reads its manifest again, so
   * the spec runs the installed package. Before the person agreed, only in the sandbox.
   */
  private async packageStep(
    staged: Staged,
    agreed: boolean,
    onLine: ((line: string) => void) | undefined,
  ): Promise<PackageStepOutcome> {
    const pkg = await installPackages(staged.spec, {
      hiddenRoot: this.paths.root,
      parentEnv: this.opts.parentEnv ?? process.env,
      unsandboxedAllowed: agreed,
      ...(this.opts.sandbox === false ? { sandbox: false } : {}),
      ...(onLine ? { onLine } : {}),
    });
    if (pkg.ok === true && pkg.record) {
      const m = loadManifest(staged.dir);
      if (!m.ok) return { ok: false, message: `the manifest no longer reads after the package install`, tail: [] };
      staged.spec = m.spec;
    }
    return pkg;
  }

  /**
   * Puts back the version the last upgrade replaced (previous.ts), keeping settings, grants and
   * exposure; the version taken out is kept in its place, so a second rollback undoes the first.
   */
  async rollback(id: string): Promise<Outcome<{ detail: string }>> {
    const rec = this.records.get(id);
    if (rec?.source !== 'installed')
      return this.audit.refused('rollback', id, failure('not_found', `no plugin "${id}" is installed`));
    const wasRunning = this.bindings.running(id);
    await this.bindings.unbind(id);
    const r = await swapWithPrevious(this.paths, this.state, id);
    const now = loadRecord(this.paths.plugin(id), 'installed');
    if (now.spec) await this.bindings.bind(now.spec);
    if (wasRunning && now.spec?.persistent) this.bindings.startSoon(id);
    if (!r.ok) return this.audit.refused('rollback', id, r);
    this.records.set(now, 'rolled back');
    return this.audit.done(
      'rollback',
      id,
      `rolled ${id} back from ${r.from} to ${r.to}; ${r.from} is kept, so rolling back again returns to it`,
    );
  }

  /** Checks a staged install may go in beside what is there, installs its package if not yet, and commits it. */
  private async finish(
    staged: Staged,
    source: string,
    pkg: PackageStepOutcome | null,
    opts: CommitOptions,
  ): Promise<InstallOutcome | Failure> {
    const manifestId = staged.spec.id;
    const id = opts.id ?? manifestId;
    const rec = this.records.get(id);
    const refuse = (message: string): Failure => {
      staged.discard();
      return this.audit.refused('install', id, failure('install_refused', message), { source });
    };
    if (!ID_PATTERN.test(id))
      return refuse(`"${id}" cannot be an id: lower-case letters, digits, ".", "-" or "_", at most 64`);
    if (rec?.source === 'bundled') return refuse(`"${id}" is the id of a bundled plugin; choose another id`);
    if (RESERVED_IDS.has(id))
      return refuse(
        `"${id}" names Plugboard's own tools, and a plugin with it would read as them: install it as another id (plugboard plugins install --id ${id}-plugin)`,
      );
    const upgrading = rec !== undefined && rec.source === 'installed';
    // An upgrade keeps the grants, settings and secrets of what it replaces: only of the same
    // plugin. Another kind of package that happens to take the id (the study: an .mcpb named
    // "filesystem" over an imported filesystem server) would inherit its folders.
    const was = rec?.spec;
    if (upgrading && was && (was.manifestFormat !== staged.spec.manifestFormat || was.dialect !== staged.spec.dialect))
      return refuse(
        `"${id}" is installed already as another plugin (${was.manifestFormat} manifest, ${was.dialect}), which this one (${staged.spec.manifestFormat} manifest, ${staged.spec.dialect}) must not replace: it would take over its grants, settings and secrets. Install it beside as another id (plugboard plugins install --id ${id}-2), or uninstall ${id} first if it is meant to take its place`,
      );
    if (upgrading && opts.replace !== true)
      return refuse(
        `a plugin "${id}" is installed already (version ${rec.spec?.version ?? '?'}); replace it to upgrade`,
      );
    if (pkg === null || pkg.ok === 'later') {
      const done = await this.packageStep(staged, true, opts.onProgress);
      if (done.ok !== true) return refuse(done.ok === false ? stepFailure(done) : done.reason);
    }
    // After the package step, which writes its folder afresh.
    if (id !== manifestId) {
      writeInstalledAs(staged.dir, { id, manifestId });
      staged.spec = { ...staged.spec, id };
    }
    const existing = rec;
    const wasRunning = upgrading && this.bindings.running(id);
    if (upgrading) await this.bindings.unbind(id);
    const outcome = await this.commit(staged, source, opts, upgrading);
    if (!outcome.ok) {
      if (upgrading && existing?.spec) await this.bindings.bind(existing.spec);
      return this.audit.refused(upgrading ? 'upgrade' : 'install', id, outcome, { source });
    }
    const installed = loadRecord(this.paths.plugin(id), 'installed');
    if (installed.spec) await this.bindings.bind(installed.spec);
    this.records.set(installed, upgrading ? 'upgraded' : 'installed');
    this.audit.done(upgrading ? 'upgrade' : 'install', id, outcome.detail, {
      source,
      capabilities: outcome.granted,
      ...(outcome.folders.length > 0 ? { folders: outcome.folders } : {}),
    });
    // A new plugin starts as at the app's next start; one that was running when it was upgraded
    // runs again, as the new version.
    if (installed.spec && (this.opts.autostart || wasRunning)) await this.bindings.startInstalled(installed.spec);
    const record = readRecord(this.paths.plugin(id));
    return {
      ...outcome,
      ...(staged.warnings.length ? { warnings: staged.warnings } : {}),
      ...(record
        ? {
            pinned: {
              spec: record.spec,
              version: record.version_installed,
              integrity: record.integrity,
              packages: record.packages,
            },
          }
        : {}),
    };
  }

  /** Moves a prepared install into place and records it, with the grants chosen. */
  private async commit(
    staged: Staged,
    source: string,
    opts: CommitOptions,
    upgrading: boolean,
  ): Promise<InstallOutcome | Outcome<never>> {
    const grant = opts.grant ?? 'requested';
    const requested = requestedCapabilities(staged.spec);
    const grantable = [...requested, ...GRANTABLE_UNREQUESTED];
    const chosen = (grant === 'none' ? [] : Array.isArray(grant) ? grant : requested).filter(
      (g) => !opts.withhold?.includes(g),
    );
    const grants = [...new Set([...chosen, ...(opts.extra ?? [])])].filter((g) => grantable.includes(g));
    const chosenFolders = [...(grant === 'none' ? [] : (opts.folders ?? [])), ...(opts.addFolders ?? [])];
    const folders = chosenFolders.filter((f, i) => chosenFolders.findIndex((g) => g.path === f.path) === i);
    const outcome = await installStaged(staged, {
      paths: this.paths,
      state: this.state,
      source: path.resolve(source),
      grants,
      folders: folders.map((f) => ({ path: path.normalize(f.path), write: f.write })),
      upgrade: upgrading,
      ...(opts.announced?.length ? { reviewed: reviewedTools(opts.announced) } : {}),
    });
    if (!outcome.ok) return failure('io_error', outcome.message);
    // A fresh install starts without secrets, even ones an earlier uninstall elsewhere left behind.
    if (!upgrading) await this.secrets.removeAll(staged.spec.id).catch(() => undefined);
    return outcome;
  }
}

function stepFailure(f: { message: string; tail: string[] }): string {
  return f.tail.length > 0 ? `${f.message}\n${f.tail.slice(-12).join('\n')}` : f.message;
}
