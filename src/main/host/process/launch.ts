/**
 * From a PluginSpec and the user's settings to exactly what is spawned: placeholders substituted
 * (`${__dirname}`, `${HOME}`, `${user_config.KEY}`…, in setting defaults too), required settings
 * checked, folder and file settings checked to exist, the environment built from the allow-list,
 * and the command resolved to an absolute path.
 */
import os from 'node:os';
import path from 'node:path';
import { failure, type Failure } from '../../../shared/failures';
import type { PluginSpec, SettingSpec } from '../../../shared/plugin';
import { coerceSetting } from './settings';
import { allowedParentEnv, buildPluginEnv, joinPaths, networkEnv } from './env';
import { firstRunLauncher } from './launchers';
import { placeholderEscape, resolveSettingValues, substitute } from './placeholders';
import type { LaunchPlan, SettingValue } from './plan';
import { redactFailure, redactor, type SecretValue } from './redact';
import { resolveCommand } from './resolve';

export type { LaunchPlan, SandboxState, SettingValue } from './plan';
export { substitute } from './placeholders';
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
  /**
   * The login shell's PATH (process/login-path.ts), searched before the app's own: an app started
   * from a dock or menu has a PATH without the user's npx, uvx or docker.
   */
  loginPath?: string;
  /** The plugin's grants where it runs unsandboxed (sandboxed: `sandbox.grants`): `net` brings NETWORK_ENV. */
  grants?: readonly string[];
}

/** The value of each setting: the user's, else the default. Missing required ones are listed. */
export function settingValues(
  specs: SettingSpec[],
  given: Record<string, SettingValue> = {},
  ctx: { dirname: string; home: string } = { dirname: '.', home: os.homedir() },
): { values: Record<string, SettingValue>; missing: SettingSpec[] } | Failure {
  return resolveSettingValues(specs, given, ctx);
}

/**
 * Folder and file settings must name what exists: checked at every launch, defaults included. An
 * optional setting's default that names nothing here (`${HOME}/Documents` on a machine without
 * one) is left unset instead of blocking the launch (issue 21): the person never chose it, and
 * the plugin was written to run without it. What the person gave, or a required one, must exist.
 */
function checkPaths(
  specs: SettingSpec[],
  values: Record<string, SettingValue>,
  given: Record<string, SettingValue> = {},
): Failure | null {
  for (const s of specs) {
    const v = values[s.key];
    if (v === undefined || (s.type !== 'directory' && s.type !== 'file')) continue;
    if (!s.required && given[s.key] === undefined) {
      const kept = (Array.isArray(v) ? v : [v])
        .map(String)
        .filter((item) => coerceSetting({ ...s, multiple: false }, item).ok);
      if (kept.length === 0) {
        delete values[s.key];
        continue;
      }
      values[s.key] = Array.isArray(v) ? kept : (kept[0] as string);
    }
    const c = coerceSetting(s, values[s.key]);
    if (!c.ok) {
      const named = s.title && s.title !== s.key ? `${s.key} (${s.title})` : s.key;
      return failure('launch_failed', `setting ${named}${c.message.slice(s.key.length)}`);
    }
    values[s.key] = c.value;
  }
  return null;
}

/**
 * What to spawn, with the values of sensitive settings hidden in everything it shows: its
 * command line for messages, and its failures (a command not found names the command with its
 * arguments, a setting's value may be quoted).
 */
export function planLaunch(input: LaunchInput): LaunchPlan | Failure {
  const secrets = secretValues(input.spec.settings, input.settings);
  const plan = planUnredacted(input);
  if (secrets.length === 0) return plan;
  const redact = redactor(secrets);
  if (!plan.ok) return redactFailure(plan, redact);
  return { ...plan, displayCommand: plan.displayCommand.map(redact), secrets };
}

/** The values given to (or defaulted for) the sensitive settings, one per item of a list. */
function secretValues(specs: SettingSpec[], given: Record<string, SettingValue> = {}): SecretValue[] {
  const out: SecretValue[] = [];
  for (const s of specs) {
    if (!s.sensitive) continue;
    const v = given[s.key] ?? s.default;
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) out.push({ key: s.key, value: String(item) });
  }
  return out;
}

function planUnredacted(input: LaunchInput): LaunchPlan | Failure {
  const { spec } = input;
  const parentEnv = input.parentEnv ?? process.env;
  const platform = input.platform ?? process.platform;
  const home = parentEnv.HOME ?? parentEnv.USERPROFILE ?? os.homedir();
  const resolvedSettings = settingValues(spec.settings, input.settings, { dirname: spec.dir, home });
  if (!('values' in resolvedSettings)) return resolvedSettings;
  const { values, missing } = resolvedSettings;
  if (missing.length > 0) {
    const names = missing.map((s) => `${s.key}${s.title && s.title !== s.key ? ` (${s.title})` : ''}`).join(', ');
    return failure('settings_missing', `required settings are not set: ${names}`, {
      data: { plugin: spec.id, settings: missing.map((s) => s.key) },
    });
  }
  const badPath = checkPaths(spec.settings, values, input.settings);
  if (badPath) return badPath;
  const ctx = { dirname: spec.dir, home, values };

  const command: string[] = [];
  for (let i = 0; i < spec.command.length; i++) {
    const where = i === 0 ? 'command' : `args[${i - 1}]`;
    const word = spec.command[i] as string;
    const escape = placeholderEscape(word, ctx);
    if (escape) return failure('launch_failed', `${where}: ${escape}`, { command: spec.command, cwd: spec.cwd });
    const r = substitute(word, ctx, where);
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

  const net = (input.sandbox?.grants ?? input.grants ?? []).includes('net');
  const baseEnv = buildPluginEnv({
    parent: parentEnv,
    net,
    manifest: manifestEnv,
    settings: settingsEnv,
    host: input.hostEnv ?? {},
    platform,
  });
  // Programs are found on Plugboard's own PATH and the login shell's, never on one the manifest
  // or a setting gives the plugin: that PATH is the plugin's inside its sandbox, nothing more.
  const own = allowedParentEnv(parentEnv, platform);
  const pathEnv = withLoginPath(own.PATH ?? own.Path ?? '', input.loginPath, platform);
  const toolchain = { home, env: parentEnv, projectDir: spec.dir };
  const resolved = resolveCommand({
    command,
    dir: spec.dir,
    cwd: spec.cwd,
    pathEnv,
    toolchain,
    platform,
    ...(input.execPath ? { execPath: input.execPath } : {}),
    ...(input.isElectron !== undefined ? { isElectron: input.isElectron } : {}),
  });
  if (!resolved.ok) return resolved;
  const env = resolved.python
    ? buildPluginEnv({
        parent: parentEnv,
        net,
        manifest: manifestEnv,
        settings: settingsEnv,
        host: { ...(input.hostEnv ?? {}), ...resolved.env },
        python: { libsDir: path.join(spec.dir, 'libs') },
        platform,
      })
    : { ...baseEnv, ...resolved.env };
  // The child searches the PATH it was given (the manifest's, else Plugboard's), then the one its
  // command was found on (npx needs the node next to it).
  const pathKey = env.Path !== undefined && env.PATH === undefined ? 'Path' : 'PATH';
  const given = manifestEnv.PATH ?? settingsEnv.PATH;
  env[pathKey] = given === undefined ? pathEnv : joinPaths([given, pathEnv], platform);
  const plan: LaunchPlan = {
    ok: true,
    file: resolved.file,
    args: resolved.args,
    cwd: spec.cwd,
    env,
    displayCommand: [resolved.file, ...resolved.args],
    pathSearched: pathEnv,
    ...launcherFacts(command, spec.timeouts.handshakeMs),
  };
  if (!input.sandbox) return plan;
  const support = input.sandbox.support ?? sandboxSupport();
  if (!support.available) return { ...plan, sandbox: { active: false, reason: support.reason } };
  const prepared = sandboxPolicy(plan, {
    support,
    pluginDir: spec.dir,
    settings: spec.settings,
    // Only folders the person chose are mounted: a manifest's default (`${HOME}`, `~/.ssh`) would
    // otherwise grant itself a folder by the manifest alone. Its value still reaches the plugin.
    values: Object.fromEntries(Object.entries(values).filter(([k]) => input.settings?.[k] !== undefined)),
    home: ctx.home,
    pathEnv,
    toolchain,
    ...(resolved.outsideScript ? { outsideScript: resolved.outsideScript } : {}),
    // The certificate files Plugboard's own environment names, for a plugin granted the network.
    ...(net ? { caPaths: networkEnv(parentEnv).caPaths } : {}),
    ...(input.execPath ? { execPath: input.execPath } : {}),
    request: input.sandbox,
  });
  if (!prepared.ok) return prepared;
  return wrapInSandbox(prepared.plan, prepared.policy);
}

/** The login shell's PATH first (the order the user's terminal has), then the app's own rest. */
function withLoginPath(own: string, login: string | undefined, platform: NodeJS.Platform): string {
  return login ? joinPaths([login, own], platform) : own;
}

function launcherFacts(command: string[], handshakeMs: number): { note?: string; handshakeMs?: number } {
  const l = firstRunLauncher(command);
  if (!l) return {};
  return { note: l.note, ...(l.handshakeMs > handshakeMs ? { handshakeMs: l.handshakeMs } : {}) };
}
