/**
 * The sandbox of a package install step: `npm install` or `pip install` of a plugin's package
 * into its staged folder (plugins/packages). It is the plugin sandbox of sandbox.ts, held as a
 * plugin is (under root the same unprivileged user, /proc's keyrings covered, the same kinds of
 * limits, with more room for caches), with two differences: the network is there (the registries
 * are reached), and the one writable folder is the staged plugin's own package folder, where the
 * step's home, caches and configuration live too. The staged plugin's other files are read-only,
 * the programs the step runs (npm and node, a Python, uv) are shown read-only at their install
 * prefixes, and nothing else of the person's is there: not their home, not the data directory
 * (hidden as for any plugin). A package's own install scripts run here, so this is where a
 * hostile package is held.
 *
 * Where the sandbox does not work here the plan says so (`sandbox.active: false`) and the caller
 * decides whether the step may run unsandboxed (only once the person has agreed to the install).
 */
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isInside } from '../../fs';
import { GiB } from '../../../shared/limits';
import { effectiveLimits, type PluginLimits } from './limits';
import type { LaunchPlan } from './plan';
import { prepareForRoot } from './root';
import { wrapInSandbox } from './sandbox';
import { rlimitsOf } from './sandbox-inner';
import { installRoot } from './sandbox-interpreter';
import { procMasks, systemEntries } from './sandbox-prepare';
import { sandboxSupport, type SandboxSupport } from './sandbox-probe';

/** An install's caches live in its /tmp and its folder: more room than a plugin's, within the same memory. */
export const INSTALL_LIMITS: Partial<PluginLimits> = { tmpBytes: 2 * GiB, dataBytes: 4 * GiB };

export interface InstallStepRequest {
  file: string;
  args: string[];
  /** Inside `writable` or `pluginDir`. */
  cwd: string;
  env: Record<string, string>;
  /** The staged plugin folder: read-only. */
  pluginDir: string;
  /** The one writable folder (inside `pluginDir`: where the packages go). */
  writable: string;
  /** The step's HOME, inside `writable` (its configuration and caches). */
  home: string;
  /** The Plugboard data directory: hidden, as from any plugin. */
  hiddenRoot: string;
  /** The programs the step runs, by absolute path: their install prefixes are shown read-only. */
  tools: string[];
  /** Files or folders to show read-only (certificate files the person's configuration names). */
  readOnly?: string[];
  /** Limits over the install step's own (INSTALL_LIMITS over a plugin's defaults). */
  limits?: Partial<PluginLimits>;
  support?: SandboxSupport;
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The plan of one install step: sandboxed where the sandbox works, said otherwise. */
export function installStepPlan(req: InstallStepRequest): LaunchPlan {
  const plan: LaunchPlan = {
    ok: true,
    file: req.file,
    args: req.args,
    cwd: req.cwd,
    env: { ...req.env, HOME: req.home },
    displayCommand: [req.file, ...req.args],
    pathSearched: req.env.PATH ?? '',
  };
  const support = req.support ?? sandboxSupport();
  if (!support.available) return { ...plan, sandbox: { active: false, reason: support.reason } };
  // Under root the step runs as the plugins' unprivileged user, who must own what it writes.
  if (support.root) {
    const refused = prepareForRoot(support.root, {
      pluginDir: req.pluginDir,
      dataDir: req.writable,
      hiddenRoot: req.hiddenRoot,
    });
    if (refused) return { ...plan, sandbox: { active: false, reason: refused.message } };
  }
  const home = os.homedir();
  const system = systemEntries();
  const shown = system.filter((e) => e.symlink === undefined).map((e) => e.path);
  // A program and the folder it really lives in (nvm, pyenv and Homebrew keep them apart).
  const roots = req.tools.flatMap((t) => [installRoot(real(t), home), installRoot(t, home)]);
  const extra = [...roots, ...(req.readOnly ?? [])].filter(
    (r) => !shown.some((s) => isInside(s, r)) && !isInside(req.hiddenRoot, real(r)),
  );
  // Held as a plugin is (sandbox-prepare.ts): a control group where one can be had, else rlimits
  // on each process and the watch on the whole.
  const limits = effectiveLimits(INSTALL_LIMITS, req.limits);
  const cgroup = support.limits?.cgroup;
  const rlimits = rlimitsOf(limits, cgroup);
  const wrapped = wrapInSandbox(plan, {
    bwrap: support.bwrap,
    root: support.root ?? null,
    ...(support.helpers ? { helpers: support.helpers } : {}),
    limits,
    ...(rlimits ? { rlimits } : {}),
    pluginDir: req.pluginDir,
    dataDir: req.writable,
    hiddenRoot: req.hiddenRoot,
    readPaths: [],
    writePaths: [],
    net: true,
    extraReadOnly: [...new Set(extra)],
    system,
    procMasks: procMasks(),
    realPath: real,
  });
  // wrapInSandbox makes the writable folder HOME; the step's home is a folder inside it.
  return {
    ...wrapped,
    env: { ...wrapped.env, HOME: req.home },
    limits: { limits, dataDir: req.writable, ...(cgroup ? { cgroup } : {}) },
  };
}
