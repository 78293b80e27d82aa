/**
 * The launch plan of a remote MCP server: nothing to spawn, only the URL and the headers with
 * their placeholders filled from the settings (a bearer token kept as a secret setting reaches the
 * server in its header, and nowhere else). Missing required settings are refused as for a process.
 */
import os from 'node:os';
import { failure, type Failure } from '../../../shared/failures';
import type { PluginSpec } from '../../../shared/plugin';
import type { LaunchPlan, SettingValue } from '../process/plan';
import { resolveSettingValues, substitute } from '../process/placeholders';

/** A remote server is reached over the network, which only `net` opens: nothing is sent without it. */
export function netNotGranted(spec: Pick<PluginSpec, 'id' | 'name'>, url: string): Failure {
  return failure(
    'capability_not_allowed',
    `${spec.name} is a remote server (${url.split('?')[0]}), reached over the network, and the net capability is not granted: grant it in the plugin's Permissions (plugboard plugins grant ${spec.id} net)`,
  );
}

export function planRemote(
  spec: PluginSpec & { remote: NonNullable<PluginSpec['remote']> },
  settings: Record<string, SettingValue>,
  home = os.homedir(),
): LaunchPlan | Failure {
  const resolved = resolveSettingValues(spec.settings, settings, { dirname: spec.dir, home });
  if (!('values' in resolved)) return resolved;
  if (resolved.missing.length > 0) {
    const names = resolved.missing
      .map((s) => `${s.key}${s.title && s.title !== s.key ? ` (${s.title})` : ''}`)
      .join(', ');
    return failure('settings_missing', `required settings are not set: ${names}`, {
      data: { plugin: spec.id, settings: resolved.missing.map((s) => s.key) },
    });
  }
  const ctx = { dirname: spec.dir, home, values: resolved.values };
  const url = substitute(spec.remote.url, ctx, 'url');
  if (!Array.isArray(url)) return url;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec.remote.headers)) {
    const v = substitute(value, ctx, `headers.${name}`);
    if (!Array.isArray(v)) return v;
    // A header whose value came out empty (an optional token not set) is left out, not sent blank.
    const text = v.join(' ').trim();
    if (text !== '' && !/^(Bearer|Basic|Token)$/i.test(text)) headers[name] = text;
  }
  const target = url.join(' ');
  return {
    ok: true,
    file: '',
    args: [],
    cwd: spec.dir,
    env: {},
    displayCommand: [target],
    pathSearched: '',
    remote: { url: target, headers },
  };
}
