import { describe, expect, it } from 'vitest';
import {
  fieldsOf,
  initialValues,
  toArgs,
  valuesFrom,
  WHOLE,
  type FormField,
} from '../../src/renderer/src/features/chat/schema-form';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', maxLength: 5 },
    prompt: { type: 'string' },
    count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    ratio: { type: ['number', 'null'] },
    loud: { type: 'boolean' },
    colour: { enum: ['red', 'green'], default: 'green' },
    tags: { type: 'array', items: { type: 'string' } },
    options: { type: 'object' },
  },
  required: ['name', 'count'],
};

function field(fields: FormField[], key: string): FormField {
  const f = fields.find((x) => x.key === key);
  if (!f) throw new Error(`no field ${key}`);
  return f;
}

describe('fieldsOf', () => {
  const fields = fieldsOf(schema);

  it('gives each property the input its type calls for', () => {
    expect(Object.fromEntries(fields.map((f) => [f.key, f.kind]))).toEqual({
      name: 'string',
      prompt: 'text',
      count: 'integer',
      ratio: 'number',
      loud: 'boolean',
      colour: 'enum',
      tags: 'string-list',
      options: 'json',
    });
  });

  it('carries titles, required flags and limits', () => {
    expect(field(fields, 'name')).toMatchObject({ title: 'Your name', required: true, maxLength: 5 });
    expect(field(fields, 'count')).toMatchObject({ title: 'count', required: true, min: 1, max: 10, default: 3 });
    expect(field(fields, 'loud').required).toBe(false);
  });

  it('falls back to one JSON field for the whole arguments when the schema has no properties to read', () => {
    const [only, ...rest] = fieldsOf({ type: 'array' });
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ key: WHOLE, kind: 'json', required: true });
  });
});

describe('initialValues', () => {
  it('starts from the defaults, with an enum holding its option’s index', () => {
    const v = initialValues(fieldsOf(schema));
    expect(v).toMatchObject({ name: '', count: '3', loud: false, colour: '1', tags: '', options: '' });
  });

  it('preselects the only option of a required enum', () => {
    expect(
      initialValues(fieldsOf({ type: 'object', properties: { mode: { enum: ['fast'] } }, required: ['mode'] })),
    ).toEqual({ mode: '0' });
  });
});

describe('toArgs', () => {
  const fields = fieldsOf(schema);
  const filled = { ...initialValues(fields), name: 'Ada' };

  it('turns the form into typed arguments, leaving out optional fields left empty', () => {
    const r = toArgs(fields, { ...filled, ratio: '0.5', loud: true, tags: ' a \n\n b ', options: '{"x": 1}' });
    expect(r).toEqual({
      ok: true,
      args: { name: 'Ada', count: 3, ratio: 0.5, loud: true, colour: 'green', tags: ['a', 'b'], options: { x: 1 } },
    });
  });

  it('leaves an optional flag with no default out when it is off: absent and false can differ', () => {
    const r = toArgs(fields, filled);
    expect(r.ok && 'loud' in r.args).toBe(false);
  });

  it('says what is wrong with each field', () => {
    const r = toArgs(fields, { ...filled, name: '', count: '2.5', ratio: 'lots', options: '{x' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.name).toBe('Required.');
    expect(r.errors.count).toBe('Enter a whole number.');
    expect(r.errors.ratio).toBe('Enter a number.');
    expect(r.errors.options).toMatch(/^Not valid JSON/);
  });

  it('holds numbers and text to their limits', () => {
    const r = toArgs(fields, { ...filled, name: 'Adalovelace', count: '11' });
    expect(r).toEqual({ ok: false, errors: { name: 'At most 5 characters.', count: 'At most 10.' } });
    expect(toArgs(fields, { ...filled, count: '0' })).toEqual({ ok: false, errors: { count: 'At least 1.' } });
  });

  it('takes the whole-arguments field as the arguments, which must be an object', () => {
    const whole = fieldsOf({ type: 'array' });
    expect(toArgs(whole, { [WHOLE]: '{"path": "/tmp"}' })).toEqual({ ok: true, args: { path: '/tmp' } });
    const r = toArgs(whole, { [WHOLE]: '[1, 2]' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[WHOLE]).toMatch(/must be a JSON object/);
  });
});

describe('a form filled from a call’s arguments (the approval card)', () => {
  it('shows what the call carries, leaves out what it did not, and gives it back unchanged', () => {
    const fields = fieldsOf(schema);
    const args = { name: 'Ada', count: 7, colour: 'red', tags: ['a', 'b'], options: { deep: true } };
    const values = valuesFrom(fields, args);
    expect(values).toEqual(
      expect.objectContaining({ name: 'Ada', count: '7', colour: '0', tags: 'a\nb', loud: false, ratio: '' }),
    );
    // No defaults are filled in: count's default (3) would change what the model asked for.
    expect(toArgs(fields, values)).toEqual({ ok: true, args });
  });

  it('a schema the form cannot read shows the whole arguments as JSON', () => {
    const fields = fieldsOf({ type: 'array' });
    const values = valuesFrom(fields, { any: [1, 2] });
    expect(JSON.parse(String(values[WHOLE]))).toEqual({ any: [1, 2] });
    expect(toArgs(fields, values)).toEqual({ ok: true, args: { any: [1, 2] } });
  });
});
