/**
 * The sandbox of a package install step: `npm install` or `pip install` of a plugin's package
 * into its staged folder (plugins/packages). It is the plugin sandbox of sandbox.ts with two
 * differences: the network is there (the registries are reached), and the one writable folder is
 * the staged plugin's own package folder, where the step's home, caches and configuration live
 * too. The staged plugin's other files are read-only, the programs the step runs (npm and node, a
 * Python, uv) are shown read-only at their install prefixes, and nothing else of the person's is
 * there: not their home, not the data directory (hidden as for any plugin).
 *
 * Where the sandbox does not work here the plan says so (`sandbox.active: false`) and the caller
 * decides whether the step may run unsandboxed (only once the person has agreed to the install).
 */
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isInside } from '../../fs';
import type { LaunchPlan } from './plan';
import { wrapInSandbox } from './sandbox';
import { installRoot } from './sandbox-interpreter';
import { systemEntries } from './sandbox-prepare';
import { sandboxSupport, type SandboxSupport } from './sandbox-probe';

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
  const home = os.homedir();
  const system = systemEntries();
  const shown = system.filter((e) => e.symlink === undefined).map((e) => e.path);
  // A program and the folder it really lives in (nvm, pyenv and Homebrew keep them apart).
  const roots = req.tools.flatMap((t) => [installRoot(real(t), home), installRoot(t, home)]);
  const extra = [...roots, ...(req.readOnly ?? [])].filter(
    (r) => !shown.some((s) => isInside(s, r)) && !isInside(req.hiddenRoot, real(r)),
  );
  const wrapped = wrapInSandbox(plan, {
    bwrap: support.bwrap,
    pluginDir: req.pluginDir,
    dataDir: req.writable,
    hiddenRoot: req.hiddenRoot,
    readPaths: [],
    writePaths: [],
    net: true,
    extraReadOnly: [...new Set(extra)],
    system,
    realPath: real,
  });
  // wrapInSandbox makes the writable folder HOME; the step's home is a folder inside it.
  return { ...wrapped, env: { ...wrapped.env, HOME: req.home } };
}
