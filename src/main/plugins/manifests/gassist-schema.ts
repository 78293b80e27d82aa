/**
 * The `schema` form of a G-Assist manifest's functions, as NVIDIA's plugin emulator reads it
 * (plugins/plugin_emulator/manifest.py, which mirrors the engine's C++ parser), used instead of
 * `functions` when both are given:
 *   - `{anyOf: [...]}` or `{oneOf: [...]}`: one function per item, named by `name` (or `title`),
 *     or an OpenAI-style wrapper `{type: "function", function: {name, description, parameters}}`;
 *   - an object with `properties`: that object is the one function (`name`/`title`, `parameters`);
 *   - otherwise, an object of functions by name: `{name: {description, parameters, tags}}`.
 * An item without a name is skipped, as NVIDIA's parser does.
 */
import { asRecord } from '../../host';

export interface SchemaFunction {
  name: string;
  description?: string;
  tags?: string[];
  parameters?: Record<string, unknown>;
  /** Where it came from, for error messages: `schema.anyOf[1]`. */
  at: string;
}

function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : undefined;
}

function fromItem(raw: unknown, at: string): SchemaFunction | null {
  let item = asRecord(raw);
  if (!item) return null;
  let name = typeof item.name === 'string' ? item.name : typeof item.title === 'string' ? item.title : '';
  let description = typeof item.description === 'string' ? item.description : undefined;
  const wrapped = asRecord(item.function);
  if (wrapped) {
    if (typeof wrapped.name === 'string') name = wrapped.name;
    if (typeof wrapped.description === 'string') description = wrapped.description;
    item = wrapped;
    at = `${at}.function`;
  }
  if (!name) return null;
  const fn: SchemaFunction = { name, at };
  if (description !== undefined) fn.description = description;
  const tags = strings(item.tags);
  if (tags) fn.tags = tags;
  const parameters = asRecord(item.parameters);
  if (parameters) fn.parameters = parameters;
  return fn;
}

export function schemaFunctions(schema: Record<string, unknown>): SchemaFunction[] {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) {
      return list
        .map((item, i) => fromItem(item, `schema.${key}[${i}]`))
        .filter((f): f is SchemaFunction => f !== null);
    }
  }
  if ('properties' in schema) {
    const one = fromItem(schema, 'schema');
    return one ? [one] : [];
  }
  const out: SchemaFunction[] = [];
  for (const [name, def] of Object.entries(schema)) {
    const d = asRecord(def);
    if (!d || !('description' in d)) continue;
    const fn = fromItem({ ...d, name }, `schema.${name}`);
    if (fn) out.push(fn);
  }
  return out;
}
