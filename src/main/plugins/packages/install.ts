/**
 * The package install step of an install: a server launched through a package runner (detect.ts)
 * is installed once, into its staged plugin folder (`.plugboard/`), with its version resolved and
 * pinned, so that it starts from its folder afterwards without the network, in the sandbox it gets.
 *
 * The step runs in the sandbox with the network and with only `.plugboard/` writable, held to
 * limits as a plugin is (host's installStepPlan and runInstallStep), its home a fresh folder holding the person's registry settings (config.ts)
 * and its caches, removed afterwards. Where plugins run unsandboxed the step runs only once the
 * person has agreed to the install (`unsandboxedAllowed`): before that, nothing of a package runs.
 * Each line it writes goes to `onLine` as it comes, for the preview to show.
 */
import { mkdirSync, readdirSync, lstatSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PluginSpec } from '../../../shared/plugin';
import { changesWhatRuns } from '../../../shared/run-env';
import { installStepPlan, runInstallStep, sandboxSupport, type SandboxSupport } from '../../host';
import { personConfig } from './config';
import { bundleProject, describeRequest, packageOfCommand, type PackageRequest } from './detect';
import type { StepRunner } from './install-types';
import { installNpm } from './npm';
import { installPypi } from './pypi';
import { PACKAGES_DIR, recordPath, type PackageRecord } from './record';

export interface PackageStepOptions {
  /** The Plugboard data directory: hidden from the step as from any plugin. */
  hiddenRoot: string;
  /** Plugboard's environment: its PATH finds npm and Python, its HOME the person's configuration. */
  parentEnv: NodeJS.ProcessEnv;
  /** `false`: plugins run unsandboxed here by choice (the registry's `sandbox: false`). */
  sandbox?: boolean;
  /** The person has agreed to the install: where there is no sandbox, the step may run anyway. */
  unsandboxedAllowed: boolean;
  onLine?: (line: string) => void;
  signal?: AbortSignal;
  /** The whole step's deadline; ten minutes by default. */
  timeoutMs?: number;
  support?: SandboxSupport;
}

export type PackageStepOutcome =
  /** Nothing to install (the command runs no package runner), or installed (`record`). */
  | { ok: true; record: PackageRecord | null; note?: string }
  /** Not yet: it runs once the person agrees (no sandbox here). */
  | { ok: 'later'; request: PackageRequest; reason: string }
  | { ok: false; message: string; tail: string[] };

export const PACKAGE_STEP_MS = 10 * 60_000;

/** Bounds on what an install step may leave in a plugin: a package tree far past any real server's. */
export const PACKAGE_LIMITS = { maxEntries: 200_000, maxBytes: 2 * 1024 * 1024 * 1024 };

/** The package a spec's command runs, if any (what the preview says it will install). */
export function packageRequestOf(spec: PluginSpec): PackageRequest | null {
  if (spec.remote) return null;
  return packageOfCommand(spec.command) ?? bundleProject(spec);
}

export { describeRequest };

export async function installPackages(spec: PluginSpec, opts: PackageStepOptions): Promise<PackageStepOutcome> {
  const request = packageRequestOf(spec);
  if (!request) return { ok: true, record: null };
  if (/\$\{/.test(request.spec))
    return {
      ok: false,
      message: `the package to install, "${request.spec}", depends on a setting: write it out in the manifest`,
      tail: [],
    };
  const support: SandboxSupport =
    opts.sandbox === false
      ? { available: false, reason: 'plugins run unsandboxed here by choice' }
      : (opts.support ?? sandboxSupport());
  if (!support.available && !opts.unsandboxedAllowed)
    return {
      ok: 'later',
      request,
      reason: `${describeRequest(request)} is installed when you confirm: plugins run unsandboxed here (${support.reason}), and nothing of a package runs before you agree`,
    };

  const work = path.join(spec.dir, PACKAGES_DIR);
  // Plugboard's own folder is never taken from a package: what it holds is written here.
  rmSync(work, { recursive: true, force: true });
  const home = path.join(work, 'home');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const personHome = opts.parentEnv.HOME ?? os.homedir();
  const config = personConfig(opts.parentEnv, personHome);
  for (const f of config.files) {
    const file = path.join(home, f.rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, f.text, { mode: 0o600 });
  }
  const say = (line: string): void => opts.onLine?.(line);
  if (config.notes.length > 0) say(`using ${config.notes.join(', ')}`);
  say(
    `installing ${describeRequest(request)}${support.available ? ' in the sandbox, with the network' : ', unsandboxed'}`,
  );

  const deadline = Date.now() + (opts.timeoutMs ?? PACKAGE_STEP_MS);
  const step: StepRunner = {
    scriptEnv: scriptEnv(spec.env),
    pluginDir: spec.dir,
    work,
    home,
    env: opts.parentEnv,
    forgetCredentials: () => {
      // Written over in place: the file keeps the owner the step runs as (under root, not root).
      for (const f of config.files)
        writeFileSync(path.join(home, f.rel), config.withoutCredentials.find((w) => w.rel === f.rel)?.text ?? '');
    },
    run: async (file, args, o) => {
      const plan = installStepPlan({
        file,
        args,
        cwd: o.cwd,
        env: { LANG: opts.parentEnv.LANG ?? 'C.UTF-8', TMPDIR: '/tmp', ...config.env, ...o.env },
        pluginDir: spec.dir,
        writable: work,
        home,
        hiddenRoot: opts.hiddenRoot,
        tools: o.tools.flatMap((t) => [t.file, t.real]),
        readOnly: config.readOnly,
        support,
      });
      say(`$ ${[path.basename(file), ...args].join(' ')}`);
      const left = deadline - Date.now();
      // Where the sandbox works, the step runs in it or not at all (under root: its folder could not be made the plugins' user's).
      if (support.available && plan.sandbox?.active !== true)
        return {
          ok: false,
          why: `: it could not be put in the sandbox (${plan.sandbox?.active === false ? plan.sandbox.reason : 'no sandbox'})`,
          tail: [],
        };
      const r = await runInstallStep(plan, {
        onLine: say,
        timeoutMs: Math.max(1000, left),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      const why = r.breach
        ? `: it was stopped, for ${r.breach}`
        : r.stopped
          ? r.stopped === 'timeout'
            ? `: it took longer than ${Math.round((opts.timeoutMs ?? PACKAGE_STEP_MS) / 1000)} s`
            : ': cancelled'
          : r.spawnError
            ? `: ${r.spawnError}`
            : r.ok
              ? ''
              : ` (exit code ${r.code ?? r.signal})`;
      return { ok: r.ok, why, tail: r.tail };
    },
  };
  try {
    const installed = request.ecosystem === 'npm' ? await installNpm(request, step) : await installPypi(request, step);
    if (!installed.ok) {
      rmSync(work, { recursive: true, force: true });
      return { ok: false, message: installed.message, tail: installed.tail ?? [] };
    }
    rmSync(home, { recursive: true, force: true });
    const size = measure(work);
    if (size.entries > PACKAGE_LIMITS.maxEntries || size.bytes > PACKAGE_LIMITS.maxBytes) {
      rmSync(work, { recursive: true, force: true });
      return {
        ok: false,
        message: `the installed packages hold ${size.entries} entries and ${Math.round(size.bytes / 1048576)} MiB, past the ${PACKAGE_LIMITS.maxEntries} entries or ${PACKAGE_LIMITS.maxBytes / 1073741824} GiB allowed`,
        tail: [],
      };
    }
    const record: PackageRecord = {
      version: 1,
      command: spec.command,
      ecosystem: request.ecosystem,
      runner: request.runner,
      spec: request.spec,
      name: request.name,
      version_installed: installed.version,
      integrity: installed.integrity,
      launch: installed.launch,
      env: installed.env,
      lock: installed.lock,
      packages: installed.packages,
      installed_at: new Date().toISOString(),
    };
    writeFileSync(recordPath(spec.dir), `${JSON.stringify(record, null, 2)}\n`);
    const what = request.spec ? `${request.name} ${installed.version}` : 'the bundle’s dependencies';
    say(
      `installed ${what} (${installed.packages} package${installed.packages === 1 ? '' : 's'}, pinned in ${installed.lock})`,
    );
    return { ok: true, record, note: `installed ${what}, pinned` };
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    return { ok: false, message: `the package install failed: ${(e as Error).message}`, tail: [] };
  }
}

function measure(dir: string): { entries: number; bytes: number } {
  let entries = 0;
  let bytes = 0;
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      const st = lstatSync(p);
      entries++;
      if (st.isDirectory()) walk(p);
      else bytes += st.size;
      if (entries > PACKAGE_LIMITS.maxEntries) return;
    }
  };
  walk(dir);
  return { entries, bytes };
}

/**
 * The server's environment as its packages' install scripts see it, as `npx -y` would run them:
 * its plain values (a setting's or secret's placeholder is not resolved here, and a secret never
 * reaches a package's scripts), without what changes what runs (shared/run-env.ts: NODE_OPTIONS
 * would load code into npm itself) or how packages are fetched (npm's, pip's and uv's settings
 * are the person's, from config.ts).
 */
export function scriptEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      ([name, value]) =>
        !value.includes('${') &&
        !changesWhatRuns(name) &&
        !/^(npm_config_|pip_|uv_|plugboard_)/i.test(name) &&
        !['HOME', 'TMPDIR', 'LANG', 'USER', 'LOGNAME'].includes(name),
    ),
  );
}
