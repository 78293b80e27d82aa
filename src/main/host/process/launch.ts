/**
 * From a PluginSpec and the user's settings to exactly what is spawned: placeholders substituted
 * (`${__dirname}`, `${HOME}`, `${user_config.KEY}`…), required settings checked, the environment
 * built from the allow-list, and the command resolved to an absolute path.
 */
import os from 'node:os';
import path from 'node:path';
import { failure, type Failure } from '../../../shared/failures';
import type { PluginSpec, SettingSpec } from '../../../shared/model';
import { allowedParentEnv, buildPluginEnv } from './env';
import type { LaunchPlan, SettingValue } from './plan';
import { resolveCommand } from './resolve';

export type { LaunchPlan, SandboxState, SettingValue } from './plan';
import { wrapInSandbox } from './sandbox';
import { sandboxPolicy, type SandboxRequest } from './sandbox-prepare';
import { sandboxSupport, type SandboxSupport } from './sandbox-probe';

export interface LaunchInput {
  spec: PluginSpec;
  /** The user's values, by setting key. Defaults fill the gaps. */
  settings?: Record<string, SettingValue>;
  parentEnv?: NodeJS.ProcessEnv;
  /** Variables the host adds (PLUGBOARD_*). */
  hostEnv?: Record<string, string>;
  platform?: NodeJS.Platform;
  execPath?: string;
  isElectron?: boolean;
  /**
   * Run the plugin in its sandbox (Linux with a working bwrap). Without this field the plugin
   * runs unsandboxed, as callers that know no data directory do.
   */
  sandbox?: SandboxRequest & {
    /** Whether and how the sandbox works here; default the cached probe of this process. */
    support?: SandboxSupport;
  };
}

/** The value of each setting: the user's, else the default. Missing required ones are listed. */
export function settingValues(
  specs: SettingSpec[],
  given: Record<string, SettingValue> = {},
): { values: Record<string, SettingValue>; missing: SettingSpec[] } {
  const values: Record<string, SettingValue> = {};
  const missing: SettingSpec[] = [];
  for (const s of specs) {
    const v = given[s.key] ?? s.default;
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) {
      if (s.required) missing.push(s);
      continue;
    }
    values[s.key] = v;
  }
  return { values, missing };
}

const PLACEHOLDER = /\$\{([^}]+)\}/g;

function knownDirs(home: string): Record<string, string> {
  return {
    HOME: home,
    DESKTOP: path.join(home, 'Desktop'),
    DOCUMENTS: path.join(home, 'Documents'),
    DOWNLOADS: path.join(home, 'Downloads'),
  };
}

/**
 * Substitutes placeholders in one string. An argument that is exactly `${user_config.KEY}` with a
 * list value expands into one argument per item (MCPB `multiple`), which is why this returns a list.
 */
export function substitute(
  text: string,
  ctx: { dirname: string; home: string; values: Record<string, SettingValue> },
  where: string,
): string[] | Failure {
  const whole = /^\$\{user_config\.([^}]+)\}$/.exec(text);
  if (whole) {
    const v = ctx.values[whole[1] as string];
    if (Array.isArray(v)) return v.map(String);
  }
  const dirs = knownDirs(ctx.home);
  let bad: string | null = null;
  const out = text.replace(PLACEHOLDER, (all, name: string) => {
    if (name === '__dirname') return ctx.dirname;
    if (name === 'pathSeparator' || name === '/') return path.sep;
    if (name in dirs) return dirs[name] as string;
    if (name.startsWith('user_config.')) {
      const v = ctx.values[name.slice('user_config.'.length)];
      if (v === undefined) return '';
      return Array.isArray(v) ? v.join(' ') : String(v);
    }
    bad ??= all;
    return all;
  });
  if (bad !== null) return failure('launch_failed', `${where} uses the unknown placeholder ${bad}`);
  return [out];
}

export function planLaunch(input: LaunchInput): LaunchPlan | Failure {
  const { spec } = input;
  const parentEnv = input.parentEnv ?? process.env;
  const platform = input.platform ?? process.platform;
  const { values, missing } = settingValues(spec.settings, input.settings);
  if (missing.length > 0) {
    const names = missing.map((s) => `${s.key}${s.title && s.title !== s.key ? ` (${s.title})` : ''}`).join(', ');
    return failure('settings_missing', `required settings are not set: ${names}`, { data: { plugin: spec.id, settings: missing.map((s) => s.key) } });
  }
  const ctx = { dirname: spec.dir, home: parentEnv.HOME ?? parentEnv.USERPROFILE ?? os.homedir(), values };

  const command: string[] = [];
  for (let i = 0; i < spec.command.length; i++) {
    const r = substitute(spec.command[i] as string, ctx, i === 0 ? 'command' : `args[${i - 1}]`);
    if (!Array.isArray(r)) return r;
    command.push(...r);
  }
  const manifestEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(spec.env)) {
    const r = substitute(v, ctx, `env.${k}`);
    if (!Array.isArray(r)) return r;
    manifestEnv[k] = r.join(' ');
  }
  const settingsEnv: Record<string, string> = {};
  for (const s of spec.settings) {
    const v = values[s.key];
    if (s.env && v !== undefined) settingsEnv[s.env] = Array.isArray(v) ? v.join(path.delimiter) : String(v);
  }

  const baseEnv = buildPluginEnv({ parent: parentEnv, manifest: manifestEnv, settings: settingsEnv, host: input.hostEnv ?? {}, platform });
  const pathEnv = baseEnv.PATH ?? baseEnv.Path ?? '';
  const resolved = resolveCommand({
    command,
    dir: spec.dir,
    cwd: spec.cwd,
    pathEnv,
    platform,
    ...(input.execPath ? { execPath: input.execPath } : {}),
    ...(input.isElectron !== undefined ? { isElectron: input.isElectron } : {}),
  });
  if (!resolved.ok) return resolved;
  const env = resolved.python
    ? buildPluginEnv({
        parent: parentEnv,
        manifest: manifestEnv,
        settings: settingsEnv,
        host: { ...(input.hostEnv ?? {}), ...resolved.env },
        python: { libsDir: path.join(spec.dir, 'libs') },
        platform,
      })
    : { ...baseEnv, ...resolved.env };
  const plan: LaunchPlan = {
    ok: true,
    file: resolved.file,
    args: resolved.args,
    cwd: spec.cwd,
    env,
    displayCommand: [resolved.file, ...resolved.args],
    pathSearched: pathEnv,
  };
  if (!input.sandbox) return plan;
  const support = input.sandbox.support ?? sandboxSupport();
  if (!support.available) return { ...plan, sandbox: { active: false, reason: support.reason } };
  const hostEnv = allowedParentEnv(parentEnv, platform);
  const prepared = sandboxPolicy(plan, {
    bwrap: support.bwrap,
    pluginDir: spec.dir,
    settings: spec.settings,
    values,
    home: ctx.home,
    hostEnv,
    ...(input.execPath ? { execPath: input.execPath } : {}),
    request: input.sandbox,
  });
  return wrapInSandbox(prepared.plan, prepared.policy);
}
