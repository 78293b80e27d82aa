/**
 * Tool arguments checked against the tool's JSON Schema before any call (`invalid_arguments`).
 * Each schema is checked by the draft it declares in `$schema`: 2020-12 (MCP's default, and what
 * zod 4 and the MCP SDKs emit: `@playwright/mcp`, context7…), 2019-09, draft-07 and draft-06, with
 * Ajv's class for that draft. A schema that declares none is 2020-12 as MCP says, unless only
 * draft-07 can read it (a tuple written `items: [...]`, as manifests written before 2020-12 are).
 * Ajv compiles each schema object once; a schema Ajv cannot compile is reported, not thrown.
 * Compiled functions live in a WeakMap keyed by the schema object and Ajv keeps nothing: schemas
 * are not registered by `$id` (two plugins, or a reload, may reuse one) and each is removed from
 * Ajv's own cache after compiling, so relaunches and `tools/list` answers do not pile up.
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import type AjvCore from 'ajv/dist/core.js';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { failure, type Failure } from '../../shared/failures';
import type { JsonSchema } from '../../shared/plugin';

type Draft = '2020-12' | '2019-09' | 'draft-07' | 'draft-06';

const OPTIONS: Options = { allErrors: true, strict: false, validateFormats: false, addUsedSchema: false };
/**
 * One Ajv per draft, made when a schema of that draft is first checked: each compiles its
 * meta-schemas as it is made, which every `plugboard` command and the app's start would otherwise pay.
 */
const MAKE: Record<Draft, () => AjvCore> = {
  '2020-12': () => new Ajv2020(OPTIONS),
  '2019-09': () => new Ajv2019(OPTIONS),
  'draft-07': () => new Ajv(OPTIONS),
  // Draft-07 only added keywords to draft-06 (`if`/`then`/`else`, `contentMediaType`…): every
  // keyword of draft-06 means the same in draft-07.
  'draft-06': () => ajvFor('draft-07'),
};
const made = new Map<Draft, AjvCore>();

function ajvFor(draft: Draft): AjvCore {
  let ajv = made.get(draft);
  if (!ajv) {
    ajv = MAKE[draft]();
    made.set(draft, ajv);
  }
  return ajv;
}
/** `$schema` as written (http or https, with or without the empty fragment) → its draft. */
const DRAFT_OF: Record<string, Draft> = {
  'json-schema.org/draft/2020-12/schema': '2020-12',
  'json-schema.org/draft/2019-09/schema': '2019-09',
  'json-schema.org/draft-07/schema': 'draft-07',
  'json-schema.org/draft-06/schema': 'draft-06',
};

const cache = new WeakMap<JsonSchema, ValidateFunction | Error>();

/** The draft a schema declares; undefined when it declares none; an Error for one we cannot check. */
function declaredDraft(schema: JsonSchema): Draft | Error | undefined {
  const uri = schema.$schema;
  if (uri === undefined) return undefined;
  const key =
    typeof uri === 'string'
      ? uri
          .trim()
          .replace(/^https?:\/\//, '')
          .replace(/#$/, '')
      : undefined;
  const draft = key === undefined ? undefined : DRAFT_OF[key];
  if (draft) return draft;
  return new Error(
    `its $schema ${JSON.stringify(uri)} is a JSON Schema draft Plugboard cannot check (it checks 2020-12, 2019-09, draft-07 and draft-06)`,
  );
}

function compileWith(ajv: AjvCore, schema: JsonSchema): ValidateFunction {
  // The class already is the declared draft; `$schema` itself is left out so that the ways people
  // write the same draft (https, a trailing `#`) all read as that draft.
  const { $schema: _declared, ...body } = schema;
  try {
    return ajv.compile(body);
  } finally {
    ajv.removeSchema(body);
  }
}

function compile(schema: JsonSchema): ValidateFunction | Error {
  const draft = declaredDraft(schema);
  if (draft instanceof Error) return draft;
  try {
    return compileWith(ajvFor(draft ?? '2020-12'), schema);
  } catch (e) {
    if (draft !== undefined) return e as Error;
    try {
      return compileWith(ajvFor('draft-07'), schema);
    } catch {
      return e as Error;
    }
  }
}

function compiled(schema: JsonSchema): ValidateFunction | Error {
  let v = cache.get(schema);
  if (!v) {
    v = compile(schema);
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
  const problems = (v.errors ?? []).map((e) => describeError(e, 'arguments'));
  return failure('invalid_arguments', `arguments for ${tool} do not match its schema: ${problems.join('; ')}`);
}

/**
 * The same checks for the MCP SDK's `Client`, which compiles each tool's `outputSchema` when the
 * tools are listed (its own Ajv reads every schema as draft-07). An output schema that cannot be
 * compiled is not held against the tool's results: it is the server's claim about itself, and
 * failing every call of the tool would help no one.
 */
export const mcpSchemaValidator = {
  getValidator<T>(schema: unknown) {
    const v = schema && typeof schema === 'object' ? compiled(schema as JsonSchema) : undefined;
    return (input: unknown) => {
      if (!v || v instanceof Error || v(input))
        return { valid: true as const, data: input as T, errorMessage: undefined };
      const errorMessage = (v.errors ?? []).map((e) => describeError(e, 'structuredContent')).join('; ');
      return { valid: false as const, data: undefined, errorMessage };
    };
  },
};

function describeError(e: ErrorObject, root: string): string {
  const at = `${root}${e.instancePath.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}`;
  if (e.keyword === 'required')
    return `${at}.${String((e.params as { missingProperty: string }).missingProperty)} is required`;
  if (e.keyword === 'additionalProperties') {
    return `${at}.${String((e.params as { additionalProperty: string }).additionalProperty)} is not allowed`;
  }
  if (e.keyword === 'unevaluatedProperties') {
    return `${at}.${String((e.params as { unevaluatedProperty: string }).unevaluatedProperty)} is not allowed`;
  }
  if (e.keyword === 'enum')
    return `${at} must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
  return `${at} ${e.message ?? 'is invalid'}`;
}
