/**
 * Can plugins be sandboxed here? Asked once per process (the answer does not change while the
 * app runs) by starting `true` in the very sandbox plugins get. Where the answer is no, plugins
 * run unsandboxed and the reason says why, in words a person can act on.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { probeCgroups, sweepCgroups } from './cgroups';
import { defaultLimits } from './limits';
import { rootMode } from './root';
import { procMasks, systemEntries } from './sandbox-prepare';
import { searchPath } from './resolve';
import { wrapInSandbox } from './sandbox';
import type { SandboxHelpers } from './sandbox-inner';
import type { LimitSupport, SandboxSupport } from './sandbox-support';

export type { LimitSupport, SandboxSupport } from './sandbox-support';

/** Set to `off` (or 0, false, no) to run plugins unsandboxed on purpose. */
export const SANDBOX_ENV = 'PLUGBOARD_SANDBOX';
/** Set to `off` to hold plugins by rlimits and tmpfs sizes only, where control groups could be had. */
export const CGROUPS_ENV = 'PLUGBOARD_CGROUPS';

const TRIAL_MS = 5000;
/** Where bwrap is looked for after PATH: a desktop session's PATH can be short. */
const FALLBACK_PATH = '/usr/bin:/bin:/usr/local/bin';

let cached: SandboxSupport | undefined;

/** The probe's answer for this process, computed on first use. */
export function sandboxSupport(opts: { refresh?: boolean } = {}): SandboxSupport {
  if (!cached || opts.refresh) cached = probeSandbox();
  return cached;
}

export interface ProbeOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Searched after PATH. */
  fallbackPath?: string;
}

export function probeSandbox(opts: ProbeOptions = {}): SandboxSupport {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  if (platform !== 'linux')
    return {
      available: false,
      reason: `the plugin sandbox uses bubblewrap, which exists on Linux only (this is ${platform})`,
    };
  const setting = env[SANDBOX_ENV]?.trim().toLowerCase();
  if (setting && ['off', '0', 'false', 'no'].includes(setting))
    return { available: false, reason: `turned off by ${SANDBOX_ENV}=${env[SANDBOX_ENV]}` };
  const searched = [env.PATH ?? '', opts.fallbackPath ?? FALLBACK_PATH].filter(Boolean).join(':');
  const bwrap = searchPath('bwrap', searched, platform);
  if (!bwrap)
    return {
      available: false,
      reason: `bwrap is not installed (install the bubblewrap package; looked on ${searched})`,
    };
  const trueBin = searchPath('true', '/usr/bin:/bin', platform);
  if (!trueBin) return { available: false, reason: 'no /usr/bin/true to try the sandbox with' };

  const root = rootMode(platform);
  const sbin = '/usr/bin:/bin:/usr/sbin:/sbin';
  const helpers: SandboxHelpers = {
    prlimit: searchPath('prlimit', sbin, platform),
    nice: searchPath('nice', sbin, platform),
  };
  const limits = limitSupport(helpers, env);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'plugboard-sandbox-probe-'));
  try {
    // The layout of a real launch: a plugin folder, and a data directory holding its own folder.
    const pluginDir = path.join(scratch, 'plugin');
    const data = path.join(scratch, 'data');
    const own = path.join(data, 'plugin-data', 'probe');
    mkdirSync(pluginDir, { mode: 0o755 });
    mkdirSync(own, { recursive: true });
    if (root) chownSync(own, root.uid, root.gid);
    const plan = wrapInSandbox(
      {
        ok: true,
        file: trueBin,
        args: [],
        cwd: pluginDir,
        env: { PATH: '/usr/bin:/bin' },
        displayCommand: [trueBin],
        pathSearched: '',
      },
      {
        bwrap,
        pluginDir,
        dataDir: own,
        hiddenRoot: data,
        readPaths: [],
        writePaths: [],
        net: false,
        extraReadOnly: [],
        system: systemEntries(),
        procMasks: procMasks(),
        root,
        helpers,
        limits: defaultLimits(),
        ...(limits.cgroup ? {} : { rlimits: { processes: 64, memoryBytes: defaultLimits().memoryBytes, nice: 1 } }),
      },
    );
    const r = spawnSync(plan.file, plan.args, { cwd: plan.cwd, env: plan.env, timeout: TRIAL_MS, encoding: 'utf8' });
    const stderr = (r.stderr ?? '').trim();
    if (r.error) return { available: false, reason: `bwrap (${bwrap}) could not run: ${r.error.message}` };
    if (r.status !== 0) {
      const said = stderr || `exit code ${r.status ?? r.signal}`;
      if (root && /setpriv|prlimit/.test(stderr))
        return { available: false, reason: `the sandbox could not drop root here (${bwrap}): ${said}` };
      if (/namespace|uid map|setting up uid|Operation not permitted|Permission denied/i.test(stderr)) {
        return { available: false, reason: `user namespaces are not available to bwrap here (${bwrap}): ${said}` };
      }
      return { available: false, reason: `bwrap (${bwrap}) does not work here: ${said}` };
    }
    return { available: true, bwrap, version: bwrapVersion(bwrap), root, helpers, limits };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Whether plugins get control groups here, and what holds without them. */
function limitSupport(helpers: SandboxHelpers, env: NodeJS.ProcessEnv): LimitSupport {
  const off = ['off', '0', 'false', 'no'].includes(env[CGROUPS_ENV]?.trim().toLowerCase() ?? '');
  const cg = off ? { reason: `turned off by ${CGROUPS_ENV}=${env[CGROUPS_ENV]}` } : probeCgroups();
  if ('kind' in cg) {
    sweepCgroups(cg);
    return {
      enforcement: cg.kind,
      cgroup: cg,
      note: `each plugin has its own control group (${cg.kind === 'cgroup2' ? 'cgroup v2' : 'cgroup v1'}): the kernel holds all its processes together to its process, memory and CPU limits`,
    };
  }
  const rl = helpers.prlimit
    ? 'each of its processes is held to the memory limit, and its user in its sandbox to the process limit (rlimits); Plugboard stops a plugin whose processes together go over its memory'
    : 'prlimit (util-linux) is missing, so only the sizes of /tmp and of the data folder hold';
  return { enforcement: 'rlimit', note: `no control groups here (${cg.reason}): ${rl}` };
}

function bwrapVersion(bwrap: string): string | null {
  const r = spawnSync(bwrap, ['--version'], { timeout: TRIAL_MS, encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
  return /(\d+\.\d+(\.\d+)?)/.exec(r.stdout ?? '')?.[1] ?? null;
}
