/**
 * MCPB (formerly DXT) `manifest.json`: an MCP server bundle. `server.mcp_config` says how to run
 * it, with `${__dirname}`, `${HOME}` and `${user_config.KEY}` placeholders substituted at launch;
 * `user_config` declares the settings; `tools` (names only) are what the bundle promises.
 */
import path from 'node:path';
import { z } from 'zod';
import type { SettingSpec } from '../../../shared/plugin';
import {
  baseSpec,
  formatIssues,
  invalid,
  MCP_TIMEOUTS,
  toId,
  tool,
  withLauncherAllowance,
  withLauncherCapabilities,
  withTimeouts,
  type ManifestResult,
} from './common';

const McpConfig = z.object({
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
});

const UserConfig = z.object({
  type: z.enum(['string', 'number', 'boolean', 'directory', 'file']),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
  multiple: z.boolean().optional(),
  sensitive: z.boolean().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
});

const Manifest = z
  .object({
    manifest_version: z.string().optional(),
    dxt_version: z.string().optional(),
    name: z.string().min(1),
    display_name: z.string().optional(),
    version: z.string().min(1),
    description: z.string().optional(),
    author: z.object({ name: z.string(), url: z.string().optional() }).passthrough().optional(),
    license: z.string().optional(),
    homepage: z.string().optional(),
    icon: z.string().optional(),
    server: z.object({
      type: z.enum(['node', 'python', 'binary', 'uv']),
      entry_point: z.string().min(1),
      mcp_config: McpConfig.extend({
        platform_overrides: z.record(z.string(), McpConfig.partial()).optional(),
      }).optional(),
    }),
    user_config: z.record(z.string(), UserConfig).optional(),
    tools: z.array(z.object({ name: z.string().min(1), description: z.string().optional() })).optional(),
    compatibility: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((m) => m.manifest_version !== undefined || m.dxt_version !== undefined, {
    message: 'manifest_version is missing (or dxt_version, for older bundles)',
    path: ['manifest_version'],
  });

export function looksLikeMcpb(json: Record<string, unknown>): boolean {
  return 'server' in json || 'manifest_version' in json || 'dxt_version' in json;
}

function defaultCommand(type: string, entry: string): string[] {
  const at = `\${__dirname}/${entry}`;
  if (type === 'node') return ['node', at];
  if (type === 'python') return ['python3', at];
  if (type === 'uv') return ['uv', 'run', at];
  return [at];
}

export function readMcpb(file: string, json: unknown, platform: NodeJS.Platform = process.platform): ManifestResult {
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) return invalid(file, formatIssues(parsed.error));
  const m = parsed.data;
  const cfg = m.server.mcp_config;
  const override = cfg?.platform_overrides?.[platform];
  const command = cfg
    ? [override?.command ?? cfg.command, ...(override?.args ?? cfg.args ?? [])]
    : defaultCommand(m.server.type, m.server.entry_point);
  const env = { ...(cfg?.env ?? {}), ...(override?.env ?? {}) };
  const settings: SettingSpec[] = Object.entries(m.user_config ?? {}).map(([key, u]) => {
    const s: SettingSpec = {
      key,
      type: u.type,
      title: u.title ?? key,
      description: u.description ?? '',
      required: u.required ?? false,
      sensitive: u.sensitive ?? false,
      multiple: u.multiple ?? false,
    };
    if (u.default !== undefined) s.default = u.default;
    if (u.min !== undefined) s.min = u.min;
    if (u.max !== undefined) s.max = u.max;
    return s;
  });
  const spec = baseSpec(file, {
    id: toId(m.name),
    name: m.display_name ?? m.name,
    version: m.version,
    description: m.description ?? '',
    dialect: 'mcp',
    framing: 'ndjson',
    manifestFormat: 'mcpb',
    command,
    env,
    persistent: true,
    tools: (m.tools ?? []).map((t) => tool(t.name, t.description ?? '')),
    settings,
    timeouts: withLauncherAllowance(command, withTimeouts(undefined, MCP_TIMEOUTS), false, path.dirname(file)),
    // A bundle that asks for folders or files (user_config of type directory or file) needs them
    // in its sandbox: it requests reading them, and writing the folders; the person grants it.
    capabilities: withLauncherCapabilities(command, pathCapabilities(settings), path.dirname(file)),
  });
  spec.protocolVersion = m.manifest_version ?? m.dxt_version ?? '';
  const about = {
    ...(m.author?.name ? { author: m.author.name } : {}),
    ...(m.license ? { license: m.license } : {}),
    ...(m.homepage ? { homepage: m.homepage } : {}),
    ...(m.icon ? { icon: m.icon } : {}),
  };
  if (Object.keys(about).length > 0) spec.about = about;
  return { ok: true, spec, warnings: [] };
}

function pathCapabilities(settings: SettingSpec[]): string[] {
  const caps: string[] = [];
  if (settings.some((s) => s.type === 'directory' || s.type === 'file')) caps.push('fs.read');
  if (settings.some((s) => s.type === 'directory')) caps.push('fs.write');
  return caps;
}
