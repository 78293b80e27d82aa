/**
 * Turning a tool's JSON Schema into a form, and the form's values back into arguments. Handles
 * an object of string / number / integer / boolean / enum / array-of-string properties; any
 * other property gets a JSON text field, and a schema that is not an object of properties gets
 * one JSON field for the whole arguments object. The server validates again (invalid_arguments).
 */
export type FieldKind = 'string' | 'text' | 'number' | 'integer' | 'boolean' | 'enum' | 'string-list' | 'json';

export interface FormField {
  key: string;
  kind: FieldKind;
  title: string;
  description: string;
  required: boolean;
  enumValues: unknown[];
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
}

/** Field values as the inputs hold them; enums hold the index of their option, as text. */
export type FormValues = Record<string, string | boolean>;

/** The key of the single field used when the schema cannot be read as properties. */
export const WHOLE = '';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeOf(s: Obj): string | undefined {
  const t = s.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === 'string' && x !== 'null');
  return undefined;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
/** Long free text gets a text area; the rest one line. A guess from the name, for comfort only. */
const LONG_TEXT = /content|body|prompt|code|script|text|markdown|description|notes?$/i;

function kindOf(key: string, s: Obj): FieldKind {
  if (Array.isArray(s.enum) && s.enum.length > 0) return 'enum';
  const t = typeOf(s);
  if (t === 'string') return LONG_TEXT.test(key) || (num(s.maxLength) ?? 0) > 1000 ? 'text' : 'string';
  if (t === 'number') return 'number';
  if (t === 'integer') return 'integer';
  if (t === 'boolean') return 'boolean';
  if (t === 'array' && isObj(s.items) && typeOf(s.items) === 'string' && !Array.isArray(s.items.enum))
    return 'string-list';
  return 'json';
}

export function fieldsOf(schema: Obj): FormField[] {
  const props = schema.properties;
  if (!isObj(props) || (schema.type !== undefined && typeOf(schema) !== 'object')) {
    return [
      {
        key: WHOLE,
        kind: 'json',
        title: 'Arguments (JSON)',
        description: 'This tool’s arguments as a JSON object.',
        required: true,
        enumValues: [],
        default: {},
      },
    ];
  }
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
  );
  return Object.entries(props).map(([key, raw]) => {
    const s = isObj(raw) ? raw : {};
    const field: FormField = {
      key,
      kind: kindOf(key, s),
      title: typeof s.title === 'string' && s.title ? s.title : key,
      description: typeof s.description === 'string' ? s.description : '',
      required: required.has(key),
      enumValues: Array.isArray(s.enum) ? s.enum : [],
      min: num(s.minimum),
      max: num(s.maximum),
      minLength: num(s.minLength),
      maxLength: num(s.maxLength),
    };
    if (s.default !== undefined) field.default = s.default;
    return field;
  });
}

export function initialValues(fields: FormField[]): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    const d = f.default;
    switch (f.kind) {
      case 'boolean':
        out[f.key] = d === true;
        break;
      case 'enum': {
        const i = f.enumValues.findIndex((v) => v === d);
        out[f.key] = i >= 0 ? String(i) : f.required && f.enumValues.length === 1 ? '0' : '';
        break;
      }
      case 'string-list':
        out[f.key] = Array.isArray(d) ? d.map(String).join('\n') : '';
        break;
      case 'json':
        out[f.key] = d === undefined ? '' : JSON.stringify(d, null, 2);
        break;
      default:
        out[f.key] = d === undefined || d === null ? '' : String(d);
    }
  }
  return out;
}

export type ArgsResult = { ok: true; args: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

function convert(f: FormField, raw: string | boolean): { value?: unknown; error?: string } {
  // An optional flag left off with no default is left out: absent and false can differ.
  if (f.kind === 'boolean')
    return raw !== true && !f.required && f.default === undefined ? {} : { value: raw === true };
  const text = String(raw);
  if (text.trim() === '') return f.required ? { error: 'Required.' } : {};
  switch (f.kind) {
    case 'number':
    case 'integer': {
      const n = Number(text);
      if (!Number.isFinite(n)) return { error: 'Enter a number.' };
      if (f.kind === 'integer' && !Number.isInteger(n)) return { error: 'Enter a whole number.' };
      if (f.min !== undefined && n < f.min) return { error: `At least ${f.min}.` };
      if (f.max !== undefined && n > f.max) return { error: `At most ${f.max}.` };
      return { value: n };
    }
    case 'enum':
      return { value: f.enumValues[Number(text)] };
    case 'string-list': {
      const items = text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      return items.length === 0 && f.required ? { error: 'Required.' } : { value: items };
    }
    case 'json': {
      try {
        const v: unknown = JSON.parse(text);
        if (f.key === WHOLE && !isObj(v))
          return { error: 'The arguments must be a JSON object, like {"name": "value"}.' };
        return { value: v };
      } catch (e) {
        return { error: `Not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
      }
    }
    default:
      if (f.minLength !== undefined && text.length < f.minLength)
        return { error: `At least ${f.minLength} characters.` };
      if (f.maxLength !== undefined && text.length > f.maxLength)
        return { error: `At most ${f.maxLength} characters.` };
      return { value: text };
  }
}

export function toArgs(fields: FormField[], values: FormValues): ArgsResult {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const r = convert(f, values[f.key] ?? '');
    if (r.error) errors[f.key] = r.error;
    else if (r.value !== undefined) {
      if (f.key === WHOLE)
        return Object.keys(errors).length
          ? { ok: false, errors }
          : { ok: true, args: r.value as Record<string, unknown> };
      args[f.key] = r.value;
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, args };
}

/**
 * The form's values for arguments given (a model's call on an approval card): each field shows
 * what the call carries, and an empty field what it left out; defaults are not filled in, so the
 * form sends back exactly what was asked unless the person changes something.
 */
export function valuesFrom(fields: FormField[], args: Record<string, unknown>): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    if (f.key === WHOLE) {
      out[f.key] = JSON.stringify(args, null, 2);
      continue;
    }
    const v = args[f.key];
    if (v === undefined) {
      out[f.key] = f.kind === 'boolean' ? false : '';
      continue;
    }
    switch (f.kind) {
      case 'boolean':
        out[f.key] = v === true;
        break;
      case 'enum': {
        const i = f.enumValues.findIndex((e) => JSON.stringify(e) === JSON.stringify(v));
        out[f.key] = i >= 0 ? String(i) : '';
        break;
      }
      case 'string-list':
        out[f.key] = Array.isArray(v) ? v.map(String).join('\n') : String(v);
        break;
      case 'json':
        out[f.key] = JSON.stringify(v, null, 2);
        break;
      default:
        out[f.key] = typeof v === 'string' ? v : JSON.stringify(v);
    }
  }
  return out;
}
