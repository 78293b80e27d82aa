/**
 * Tool arguments checked against the tool's JSON Schema before any call (`invalid_arguments`).
 * Ajv compiles each schema object once; a schema Ajv cannot compile is reported, not thrown.
 * Compiled functions live in a WeakMap keyed by the schema object and Ajv keeps nothing: schemas
 * are not registered by `$id` (two plugins, or a reload, may reuse one) and each is removed from
 * Ajv's own cache after compiling, so relaunches and `tools/list` answers do not pile up.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { failure, type Failure } from '../../shared/failures';
import type { JsonSchema } from '../../shared/plugin';

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, addUsedSchema: false });
const cache = new WeakMap<JsonSchema, ValidateFunction | Error>();

function compiled(schema: JsonSchema): ValidateFunction | Error {
  let v = cache.get(schema);
  if (!v) {
    try {
      v = ajv.compile(schema);
    } catch (e) {
      v = e as Error;
    } finally {
      ajv.removeSchema(schema);
    }
    cache.set(schema, v);
  }
  return v;
}

/** Checks that a tool's schema compiles; returns the reason when it does not. */
export function schemaProblem(schema: JsonSchema): string | undefined {
  const v = compiled(schema);
  return v instanceof Error ? v.message : undefined;
}

export function validateArguments(tool: string, schema: JsonSchema, args: unknown): Failure | undefined {
  const v = compiled(schema);
  if (v instanceof Error)
    return failure('invalid_arguments', `the schema of ${tool} is not valid JSON Schema: ${v.message}`);
  if (v(args)) return undefined;
  const problems = (v.errors ?? []).map(describeError);
  return failure('invalid_arguments', `arguments for ${tool} do not match its schema: ${problems.join('; ')}`);
}

function describeError(e: ErrorObject): string {
  const at = e.instancePath
    ? `arguments${e.instancePath.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}`
    : 'arguments';
  if (e.keyword === 'required')
    return `${at}.${String((e.params as { missingProperty: string }).missingProperty)} is required`;
  if (e.keyword === 'additionalProperties') {
    return `${at}.${String((e.params as { additionalProperty: string }).additionalProperty)} is not allowed`;
  }
  if (e.keyword === 'enum')
    return `${at} must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
  return `${at} ${e.message ?? 'is invalid'}`;
}
