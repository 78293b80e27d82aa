/**
 * `rterm-plugin.json`, the bundle manifest of the `rterm.plugin.v1` runtime protocol. The child
 * gets only the environment it is given; `process.dir` (relative, inside the bundle) is its
 * working directory. Capabilities listed here are what the bundle requests; for a plugin run from
 * a path they are also its allow-list, for an installed one the user's grants are.
 */
import path from 'node:path';
import { z } from 'zod';
import { RTERM_TIMEOUTS } from '../../../shared/plugin';
import { isInside } from '../../fs';
import { schemaProblem } from '../../host';
import {
  baseSpec,
  formatIssues,
  ID_PATTERN,
  invalid,
  tool,
  withLauncherAllowance,
  withTimeouts,
  type ManifestResult,
} from './common';

const Manifest = z.object({
  plugin_id: z.string().regex(ID_PATTERN, 'must be lower-case letters, digits, ".", "-" or "_"'),
  display_name: z.string().optional(),
  description: z.string().optional(),
  plugin_version: z.string().min(1),
  protocol_version: z.string().min(1),
  capabilities: z.array(z.string()).optional(),
  process: z.object({
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    dir: z.string().optional(),
    env: z.record(z.string(), z.string()).optional(),
  }),
  tools: z
    .array(
      z
        .object({
          name: z.string().min(1),
          description: z.string().optional(),
          input_schema: z.record(z.string(), z.unknown()).optional(),
        })
        .passthrough(),
    )
    .optional(),
  timeout_ms: z.number().int().positive().optional(),
});

export function readRterm(file: string, json: unknown): ManifestResult {
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) return invalid(file, formatIssues(parsed.error));
  const m = parsed.data;
  const errors: string[] = [];
  if (m.protocol_version !== 'rterm.plugin.v1') {
    errors.push(`protocol_version: expected "rterm.plugin.v1", got "${m.protocol_version}"`);
  }
  const dir = path.dirname(file);
  const cwd = path.resolve(dir, m.process.dir ?? '.');
  if (!isInside(dir, cwd)) errors.push(`process.dir: "${m.process.dir}" is outside the plugin folder`);
  const tools = (m.tools ?? []).map((t, i) => {
    const schema = t.input_schema ?? { type: 'object', properties: {} };
    const problem = schemaProblem(schema);
    if (problem) errors.push(`tools[${i}].input_schema: not valid JSON Schema (${problem})`);
    return tool(t.name, t.description ?? '', schema);
  });
  if (errors.length > 0) return invalid(file, errors);
  const spec = baseSpec(file, {
    id: m.plugin_id,
    name: m.display_name ?? m.plugin_id,
    version: m.plugin_version,
    description: m.description ?? '',
    dialect: 'rterm-v1',
    framing: 'ndjson',
    manifestFormat: 'rterm',
    command: [m.process.command, ...(m.process.args ?? [])],
    cwd,
    env: m.process.env ?? {},
    persistent: false,
    tools,
    capabilities: m.capabilities ?? [],
    protocolVersion: m.protocol_version,
    timeouts: withLauncherAllowance(
      [m.process.command, ...(m.process.args ?? [])],
      withTimeouts(
        m.timeout_ms ? { callInactivityMs: m.timeout_ms, callHardCapMs: m.timeout_ms } : undefined,
        RTERM_TIMEOUTS,
      ),
    ),
  });
  return { ok: true, spec, warnings: [] };
}
