/**
 * NVIDIA G-Assist `manifest.json`, exactly as NVIDIA's plugins ship it. The plugin id is the
 * folder name, not `name`, and `name` is optional (NVIDIA's parser needs only manifestVersion,
 * executable, persistent and protocol_version; its own emulator example has no name). Function
 * parameters come in two shapes, both common: flat `properties` + `required`, or nested
 * `parameters: {type: "object", properties, required}`; functions may also be given in NVIDIA's
 * `schema` form (gassist-schema.ts).
 */
import path from 'node:path';
import { z } from 'zod';
import { schemaProblem } from '../../host';
import { schemaFunctions } from './gassist-schema';
import { baseSpec, formatIssues, invalid, toId, tool, withTimeouts, type ManifestResult } from './common';

const Properties = z.record(z.string(), z.unknown());

const Fn = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  properties: Properties.optional(),
  required: z.array(z.string()).optional(),
  parameters: z
    .object({
      type: z.literal('object'),
      properties: Properties.optional(),
      required: z.array(z.string()).optional(),
    })
    .passthrough()
    .optional(),
});

const Manifest = z.object({
  manifestVersion: z.number().int().optional(),
  name: z.string().min(1).optional(),
  version: z.string().optional(),
  description: z.string().optional(),
  executable: z.string().min(1),
  persistent: z.boolean().optional(),
  protocol_version: z.string({
    error: 'missing: this is a G-Assist V1 manifest, and V1 is no longer supported; set "protocol_version": "2.0"',
  }),
  functions: z.array(Fn).optional(),
  schema: z.record(z.string(), z.unknown()).optional(),
});

export function looksLikeGAssist(json: Record<string, unknown>): boolean {
  return (
    'executable' in json ||
    'manifestVersion' in json ||
    (('functions' in json || 'schema' in json) && !('server' in json))
  );
}

export function readGAssist(file: string, json: unknown): ManifestResult {
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) return invalid(file, formatIssues(parsed.error));
  const m = parsed.data;
  const errors: string[] = [];
  const warnings: string[] = [];
  if (m.protocol_version.split('.')[0] !== '2') {
    errors.push(`protocol_version: expected "2.0", got "${m.protocol_version}"`);
  }
  const seen = new Set<string>();
  const claim = (name: string, at: string): void => {
    if (seen.has(name)) errors.push(`${at}.name: "${name}" is declared twice`);
    seen.add(name);
  };
  let tools;
  if (m.schema) {
    // NVIDIA's parser reads `schema` first and then ignores `functions`.
    if (m.functions)
      warnings.push('both "schema" and "functions" are given; "schema" is used, as NVIDIA\'s parser does');
    tools = schemaFunctions(m.schema).map((f) => {
      claim(f.name, f.at);
      const p = f.parameters ?? {};
      if (p.type !== undefined && p.type !== 'object') errors.push(`${f.at}.parameters.type: expected "object"`);
      const schema = { ...p, type: 'object', properties: (p.properties as Record<string, unknown> | undefined) ?? {} };
      const problem = schemaProblem(schema);
      if (problem) errors.push(`${f.at}.parameters: not valid JSON Schema (${problem})`);
      return tool(f.name, f.description ?? '', schema, f.tags);
    });
  } else {
    tools = (m.functions ?? []).map((f, i) => {
      claim(f.name, `functions[${i}]`);
      if (f.parameters && (f.properties || f.required)) {
        warnings.push(
          `functions[${i}]: both "parameters" and flat "properties"/"required" are given; "parameters" is used`,
        );
      }
      const schema = f.parameters
        ? { ...f.parameters, properties: f.parameters.properties ?? {} }
        : { type: 'object', properties: f.properties ?? {}, ...(f.required ? { required: f.required } : {}) };
      const problem = schemaProblem(schema);
      if (problem)
        errors.push(
          `functions[${i}].${f.parameters ? 'parameters' : 'properties'}: not valid JSON Schema (${problem})`,
        );
      return tool(f.name, f.description ?? '', schema, f.tags);
    });
  }
  if (errors.length > 0) return invalid(file, errors);
  const dir = path.dirname(file);
  const folder = path.basename(dir);
  const spec = baseSpec(file, {
    id: toId(folder),
    name: m.name ?? folder,
    version: m.version ?? '0.0.0',
    description: m.description ?? '',
    dialect: 'gassist-v2',
    framing: 'length-prefixed',
    manifestFormat: 'gassist',
    // NVIDIA's engine runs `<plugin folder>/<executable>`: a bare name is never looked up on PATH.
    command: [/[/\\]/.test(m.executable) ? m.executable : `./${m.executable}`],
    persistent: m.persistent ?? false,
    tools: tools.filter((t) => t.name !== 'on_input'),
    protocolVersion: m.protocol_version,
    timeouts: withTimeouts(undefined),
  });
  return { ok: true, spec, warnings };
}
