/**
 * Mehrhof `plugin.yaml`: a provider, agent or workflow plugin speaking JSON-RPC over NDJSON.
 * Mehrhof's method set is fixed by plugin type, so the tools (named by wire method) and their
 * argument schemas come from here, not from the manifest. `env` entries become settings whose
 * values (or defaults) reach the plugin as environment variables.
 */
import { z } from 'zod';
import type { JsonSchema, SettingSpec, ToolSpec } from '../../../shared/plugin';
import {
  baseSpec,
  formatIssues,
  invalid,
  tool,
  toId,
  withLauncherAllowance,
  withLauncherCapabilities,
  withTimeouts,
  type ManifestResult,
} from './common';

const str = (description: string): JsonSchema => ({ type: 'string', description });
const obj = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
});
const anyObject: JsonSchema = { type: 'object' };

function providerTools(capabilities: string[]): ToolSpec[] {
  const tools = [
    tool(
      'provider.match',
      'Does this input belong to the provider?',
      obj({ input: str('A task reference such as jira:PROJ-123') }, ['input']),
    ),
    tool('provider.parse', 'Extract the task id from an input', obj({ input: str('A task reference') }, ['input'])),
    tool('provider.fetch', 'Fetch a task as a work unit', obj({ id: str('Task id') }, ['id'])),
    tool('provider.snapshot', 'Capture the task content for storage', obj({ id: str('Task id') }, ['id'])),
  ];
  if (capabilities.includes('list')) {
    tools.push(
      tool(
        'provider.list',
        'List tasks',
        obj({ filter: anyObject, limit: { type: 'integer', minimum: 0 }, offset: { type: 'integer', minimum: 0 } }),
      ),
    );
  }
  return tools;
}

const AGENT_TOOLS: ToolSpec[] = [
  tool('agent.available', 'Is the agent ready?'),
  tool(
    'agent.run',
    'Run a prompt; streams text, tool use and files',
    obj({ prompt: str('What to do'), context: anyObject, tools: { type: 'array', items: anyObject } }, ['prompt']),
  ),
  tool(
    'agent.tool_result',
    'Send a tool result back to the agent',
    obj({ tool_id: str('Tool call id'), result: {} }, ['tool_id']),
  ),
];

const WORKFLOW_TOOLS: ToolSpec[] = [
  tool(
    'workflow.evaluateGuard',
    'Evaluate a guard condition',
    obj({ guard: str('Guard name'), context: anyObject }, ['guard']),
  ),
  tool(
    'workflow.executeEffect',
    'Execute a side effect',
    obj({ effect: str('Effect name'), context: anyObject }, ['effect']),
  ),
];

const EnvVar = z.object({
  description: z.string().optional(),
  required: z.boolean().optional(),
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
  sensitive: z.boolean().optional(),
});

const Manifest = z.object({
  version: z.union([z.string(), z.number()]).optional(),
  name: z.string().min(1),
  type: z.enum(['provider', 'agent', 'workflow']),
  description: z.string().optional(),
  protocol: z.union([z.string(), z.number()]).optional(),
  executable: z.union(
    [
      z.object({ command: z.array(z.string()).min(1) }),
      z.object({ path: z.string().min(1), args: z.array(z.string()).optional() }),
    ],
    { error: 'expected {command: [..]} or {path: ".."}' },
  ),
  provider: z
    .object({
      name: z.string().optional(),
      schemes: z.array(z.string()).optional(),
      priority: z.number().optional(),
      capabilities: z.array(z.string()).optional(),
    })
    .optional(),
  agent: z.object({ streaming: z.boolean().optional(), capabilities: z.array(z.string()).optional() }).optional(),
  workflow: z
    .object({
      phases: z.array(z.unknown()).optional(),
      guards: z.array(z.unknown()).optional(),
      effects: z.array(z.unknown()).optional(),
    })
    .optional(),
  env: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'not a valid environment variable name'), EnvVar)
    .optional(),
  /** Plugboard's: it loads libraries from Plugboard's own node_modules (PLUGBOARD_NODE_MODULES). */
  app_modules: z.boolean().optional(),
});

/** Names that suggest a value is a secret, for env entries that do not say. */
const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|API_?KEY|CREDENTIAL)/i;

/**
 * Mehrhof joins a relative `executable.path` to the plugin folder (`link-provider` is
 * `<plugin>/link-provider`), never looking it up on PATH; `./` says the same to the resolver.
 */
function inFolder(p: string): string {
  if (p.includes('/') || p.includes('\\') || /^[a-zA-Z]:/.test(p) || p.startsWith('${')) return p;
  return `./${p}`;
}

export function readMehrhof(file: string, json: unknown): ManifestResult {
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) return invalid(file, formatIssues(parsed.error));
  const m = parsed.data;
  const command =
    'command' in m.executable ? m.executable.command : [inFolder(m.executable.path), ...(m.executable.args ?? [])];
  const tools =
    m.type === 'provider'
      ? providerTools(m.provider?.capabilities ?? ['read'])
      : m.type === 'agent'
        ? AGENT_TOOLS
        : WORKFLOW_TOOLS;
  const settings: SettingSpec[] = Object.entries(m.env ?? {}).map(([key, v]) => {
    const s: SettingSpec = {
      key,
      type: typeof v.default === 'number' ? 'number' : typeof v.default === 'boolean' ? 'boolean' : 'string',
      title: key,
      description: v.description ?? '',
      required: v.required ?? false,
      sensitive: v.sensitive ?? SECRET_NAME.test(key),
      multiple: false,
      env: key,
    };
    if (v.default !== undefined) s.default = v.default;
    return s;
  });
  const spec = baseSpec(file, {
    id: toId(m.name),
    name: m.name,
    version: m.version === undefined ? '0.0.0' : String(m.version),
    description: m.description ?? '',
    dialect: 'jsonrpc',
    framing: 'ndjson',
    manifestFormat: 'mehrhof',
    command,
    persistent: true,
    tools,
    settings,
    init: { method: `${m.type}.init`, params: { config: {} } },
    rpcFlavor: 'mehrhof',
    timeouts: withLauncherAllowance(command, withTimeouts(undefined)),
    // Providers fetch from trackers and agents call model APIs: both need the network, as every
    // real Mehrhof plugin of those types does. A workflow plugin decides locally.
    capabilities: withLauncherCapabilities(command, m.type === 'workflow' ? [] : ['net']),
  });
  if (m.protocol !== undefined) spec.protocolVersion = String(m.protocol);
  if (m.app_modules) spec.appModules = true;
  return { ok: true, spec, warnings: [] };
}
