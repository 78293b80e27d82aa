/** One field of a tool's argument form, with its label, required mark, help text and error. */
import { useId, type Dispatch, type JSX, type SetStateAction } from 'react';
import type { FormField, FormValues } from './schema-form';

const control =
  'w-full rounded-md border border-line-strong bg-bg px-2 py-1 text-[13px] text-fg placeholder:text-fg-subtle focus-visible:border-accent aria-[invalid=true]:border-bad';

export function SchemaField({
  field,
  value,
  error,
  onChange,
}: {
  field: FormField;
  value: string | boolean;
  error?: string;
  onChange: (v: string | boolean) => void;
}): JSX.Element {
  const id = useId();
  const helpId = `${id}-help`;
  const errId = `${id}-err`;
  const describedBy = [field.description ? helpId : '', error ? errId : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
    'aria-required': field.required || undefined,
  };
  const label = (
    <label htmlFor={id} className="text-xs font-medium text-fg">
      {field.title}
      {field.required && (
        <span className="text-bad" aria-hidden="true">
          {' '}
          *
        </span>
      )}
      {field.title !== field.key && field.key && (
        <code className="ml-1.5 font-mono text-[11px] font-normal text-fg-subtle">{field.key}</code>
      )}
    </label>
  );
  let input: JSX.Element;
  switch (field.kind) {
    case 'boolean':
      input = (
        <input
          type="checkbox"
          {...common}
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
          className="mt-0.5 h-3.5 w-3.5 accent-[var(--accent)]"
        />
      );
      break;
    case 'enum':
      input = (
        <select {...common} value={String(value)} onChange={(e) => onChange(e.target.value)} className={control}>
          {(!field.required || value === '') && <option value="">{field.required ? 'Choose…' : '—'}</option>}
          {field.enumValues.map((v, i) => (
            <option key={i} value={String(i)}>
              {typeof v === 'string' ? v : JSON.stringify(v)}
            </option>
          ))}
        </select>
      );
      break;
    case 'number':
    case 'integer':
      input = (
        <input
          type="number"
          {...common}
          step={field.kind === 'integer' ? 1 : 'any'}
          min={field.min}
          max={field.max}
          value={String(value)}
          onChange={(e) => onChange(e.target.value)}
          className={`${control} tabular-nums`}
        />
      );
      break;
    case 'text':
      input = (
        <textarea
          {...common}
          rows={4}
          value={String(value)}
          onChange={(e) => onChange(e.target.value)}
          className={control}
        />
      );
      break;
    case 'string-list':
      input = (
        <textarea
          {...common}
          rows={3}
          value={String(value)}
          placeholder="One item per line"
          onChange={(e) => onChange(e.target.value)}
          className={control}
        />
      );
      break;
    case 'json':
      input = (
        <textarea
          {...common}
          rows={field.key ? 3 : 8}
          spellCheck={false}
          value={String(value)}
          placeholder={field.key ? 'JSON' : '{ }'}
          onChange={(e) => onChange(e.target.value)}
          className={`${control} font-mono text-xs`}
        />
      );
      break;
    default:
      input = (
        <input
          type="text"
          {...common}
          value={String(value)}
          maxLength={field.maxLength}
          onChange={(e) => onChange(e.target.value)}
          className={control}
        />
      );
  }
  const help = (
    <>
      {field.description && (
        <p id={helpId} className="text-[11.5px] text-fg-muted">
          {field.description}
        </p>
      )}
      {error && (
        <p id={errId} className="text-[11.5px] text-bad">
          {error}
        </p>
      )}
    </>
  );
  if (field.kind === 'boolean') {
    return (
      <div className="flex items-start gap-2">
        {input}
        <div className="min-w-0 flex-1">
          {label}
          {help}
        </div>
      </div>
    );
  }
  return (
    <div className="space-y-1">
      {label}
      {input}
      {help}
    </div>
  );
}

/**
 * A form's fields, each with its value and error: a change sets the value and clears that
 * field's error (`onEdit` hears of it too). The tool form, the approval card and a server's form.
 */
export function SchemaFields({
  fields,
  values,
  errors,
  setValues,
  setErrors,
  onEdit,
}: {
  fields: readonly FormField[];
  values: FormValues;
  errors: Record<string, string>;
  setValues: Dispatch<SetStateAction<FormValues>>;
  setErrors: Dispatch<SetStateAction<Record<string, string>>>;
  onEdit?: () => void;
}): JSX.Element {
  return (
    <>
      {fields.map((f) => (
        <div key={f.key} data-field={f.key}>
          <SchemaField
            field={f}
            value={values[f.key] ?? ''}
            error={errors[f.key]}
            onChange={(v) => {
              onEdit?.();
              setValues((s) => ({ ...s, [f.key]: v }));
              if (errors[f.key]) setErrors(({ [f.key]: _gone, ...rest }) => rest);
            }}
          />
        </div>
      ))}
    </>
  );
}
