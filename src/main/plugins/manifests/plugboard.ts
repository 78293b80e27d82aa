/**
 * Plugboard's own `plugboard.json`, for any plugin the other formats do not describe: a JSON-RPC
 * tool server, an MCP server without a bundle, a G-Assist or rterm plugin that wants explicit
 * settings. It also carries the jaato-style registry facts (user commands, auto-approved tools,
 * system instructions, prompt enrichment).
 */
import { parseLimits } from '../../../shared/limits';
import path from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_TIMEOUTS,
  DIALECTS,
  FRAMINGS,
  RTERM_TIMEOUTS,
  type SettingSpec,
  type Timeouts,
} from '../../../shared/plugin';
import { isInside } from '../../fs';
import { limitsBeyondDefaults, schemaProblem } from '../../host';
import {
  baseSpec,
  formatIssues,
  ID_PATTERN,
  invalid,
  MCP_TIMEOUTS,
  REMOTE_MCP_TIMEOUTS,
  tool,
  withLauncherAllowance,
  withLauncherCapabilities,
  withTimeouts,
  type ManifestResult,
} from './common';

const ms = z.number().int().min(0);
const TimeoutsSchema = z
  .object(Object.fromEntries(Object.keys(DEFAULT_TIMEOUTS).map((k) => [k, k === 'restartDelaysMs' ? z.array(ms) : ms])))
  .partial()
  .strict();

const Setting = z.object({
  type: z.enum(['string', 'number', 'boolean', 'directory', 'file']).default('string'),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  sensitive: z.boolean().optional(),
  multiple: z.boolean().optional(),
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'not a valid environment variable name')
    .optional(),
});

const Manifest = z.object({
  id: z.string().regex(ID_PATTERN, 'must be lower-case letters, digits, ".", "-" or "_" (at most 64)'),
  name: z.string().min(1).optional(),
  version: z.string().min(1).default('0.0.0'),
  description: z.string().default(''),
  protocol: z.enum(DIALECTS),
  framing: z.enum(FRAMINGS).optional(),
  command: z.array(z.string()).min(1, 'must name the program to run').optional(),
  /** A remote MCP server (Streamable HTTP) instead of a command. */
  url: z
    .string()
    .url('must be an http:// or https:// URL')
    .refine((u) => /^https?:\/\//i.test(u), 'must be an http:// or https:// URL')
    .optional(),
  headers: z
    .record(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'not a valid HTTP header name'), z.string())
    .optional(),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  persistent: z.boolean().optional(),
  functions: z
    .array(
      z.object({
        name: z.string().min(1),
        description: z.string().default(''),
        parameters: z
          .object({ type: z.literal('object') })
          .passthrough()
          .optional(),
        tags: z.array(z.string()).optional(),
      }),
    )
    .default([]),
  capabilities: z.array(z.string()).default([]),
  timeouts: TimeoutsSchema.optional(),
  init: z.object({ method: z.string().min(1), params: z.unknown().optional() }).optional(),
  rpc_flavor: z.enum(['mehrhof', 'planner', 'generic']).optional(),
  settings: z.record(z.string(), Setting).optional(),
  user_commands: z
    .array(
      z.object({
        name: z.string().min(1),
        description: z.string().default(''),
        share_with_model: z.boolean().default(false),
      }),
    )
    .optional(),
  auto_approved_tools: z.array(z.string()).optional(),
  system_instructions: z.string().optional(),
  /** true: the function `enrich_prompt`; a string: the function of that name. */
  prompt_enrichment: z.union([z.boolean(), z.string().min(1).max(128)]).optional(),
  /** What it may consume, where it needs other than the defaults: `{"memory": "2G", "processes": 256}`. */
  limits: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** It loads libraries from Plugboard's own node_modules (PLUGBOARD_NODE_MODULES). */
  app_modules: z.boolean().optional(),
});

export function readPlugboard(file: string, json: unknown): ManifestResult {
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) return invalid(file, formatIssues(parsed.error));
  const m = parsed.data;
  const errors: string[] = [];
  if (!m.command && !m.url)
    errors.push('command: must name the program to run (or give "url" for a remote MCP server)');
  if (m.command && m.url) errors.push('url: give either "command" (a local server) or "url" (a remote one), not both');
  if (m.url && m.protocol !== 'mcp') errors.push(`url: a remote server speaks MCP; protocol is "${m.protocol}"`);
  if (m.headers && !m.url) errors.push('headers: only a remote server ("url") takes headers');
  const command = m.command ?? [];
  const dir = path.dirname(file);
  const cwd = path.resolve(dir, m.cwd ?? '.');
  if (!isInside(dir, cwd)) errors.push(`cwd: "${m.cwd}" is outside the plugin folder`);
  const names = new Set<string>();
  const tools = m.functions.map((f, i) => {
    if (names.has(f.name)) errors.push(`functions[${i}].name: "${f.name}" is declared twice`);
    names.add(f.name);
    const schema = f.parameters ?? { type: 'object', properties: {} };
    const problem = schemaProblem(schema);
    if (problem) errors.push(`functions[${i}].parameters: not valid JSON Schema (${problem})`);
    return tool(f.name, f.description, schema, f.tags);
  });
  const enricher = m.prompt_enrichment === true ? 'enrich_prompt' : m.prompt_enrichment || undefined;
  if (enricher && !names.has(enricher) && m.protocol !== 'mcp')
    errors.push(`prompt_enrichment: "${enricher}" is not one of the functions`);
  for (const [i, t] of (m.auto_approved_tools ?? []).entries()) {
    if (!names.has(t) && m.protocol !== 'mcp')
      errors.push(`auto_approved_tools[${i}]: "${t}" is not one of the functions`);
  }
  const limits = parseLimits(m.limits, 'limits');
  if (!limits.ok) errors.push(limits.message);
  if (errors.length > 0) return invalid(file, errors);
  const settings: SettingSpec[] = Object.entries(m.settings ?? {}).map(([key, s]) => {
    const out: SettingSpec = {
      key,
      type: s.type,
      title: s.title ?? key,
      description: s.description ?? '',
      required: s.required ?? false,
      sensitive: s.sensitive ?? false,
      multiple: s.multiple ?? false,
    };
    for (const k of ['default', 'min', 'max', 'env'] as const)
      if (s[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = s[k];
    return out;
  });
  const isRterm = m.protocol === 'rterm-v1';
  const spec = baseSpec(file, {
    id: m.id,
    name: m.name ?? m.id,
    version: m.version,
    description: m.description,
    dialect: m.protocol,
    framing: m.framing ?? (m.protocol === 'gassist-v2' ? 'length-prefixed' : 'ndjson'),
    manifestFormat: 'plugboard',
    command,
    cwd,
    env: m.env ?? {},
    persistent: isRterm ? false : (m.persistent ?? true),
    tools,
    // A remote server is reached over the network: it asks for `net`, which it needs to connect.
    capabilities: withLauncherCapabilities(
      command,
      m.url && !m.capabilities.includes('net') ? [...m.capabilities, 'net'] : m.capabilities,
      path.dirname(file),
    ),
    timeouts: withLauncherAllowance(
      command,
      withTimeouts(
        m.timeouts as Partial<Timeouts> | undefined,
        isRterm ? RTERM_TIMEOUTS : m.url ? REMOTE_MCP_TIMEOUTS : m.protocol === 'mcp' ? MCP_TIMEOUTS : {},
      ),
      m.timeouts?.handshakeMs !== undefined,
      path.dirname(file),
    ),
    settings,
    rpcFlavor: m.rpc_flavor ?? 'generic',
    userCommands: (m.user_commands ?? []).map((c) => ({
      name: c.name,
      description: c.description,
      shareWithModel: c.share_with_model,
    })),
    autoApprovedTools: m.auto_approved_tools ?? [],
    ...(enricher ? { promptEnricher: enricher } : {}),
  });
  if (m.url) spec.remote = { url: m.url, headers: m.headers ?? {} };
  if (m.init) spec.init = { method: m.init.method, params: m.init.params ?? {} };
  if (m.system_instructions) spec.systemInstructions = m.system_instructions;
  const warnings: string[] = [];
  if (limits.ok && Object.keys(limits.limits).length > 0) {
    spec.limits = limits.limits;
    const beyond = limitsBeyondDefaults(limits.limits);
    if (beyond)
      warnings.push(
        `its limits ask for more than the defaults (${beyond}): it is held to the defaults unless you raise them (plugboard plugins limits ${spec.id} …)`,
      );
  }
  if (m.app_modules) spec.appModules = true;
  return { ok: true, spec, warnings };
}
