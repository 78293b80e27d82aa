/**
 * The answer to an MCP server's form (elicitation) on its question card: the fields of the
 * server's schema (the same form a tool's arguments get), checked here and again by the back
 * end, then Send; or Decline, which tells the server the person said no.
 */
import { useMemo, useState, type JSX } from 'react';
import type { Question } from '../../../../../shared/assistant';
import { Button } from '../../../components/Button';
import { fieldsOf, initialValues, toArgs, type FormValues } from '../schema-form';
import { SchemaFields } from '../SchemaField';

export function FormAnswer({
  q,
  busy,
  send,
  decline,
}: {
  q: Question & { form: Record<string, unknown> };
  busy: boolean;
  send: (content: Record<string, unknown>) => void;
  decline: () => void;
}): JSX.Element {
  const fields = useMemo(() => fieldsOf(q.form), [q.form]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (): void => {
    const r = toArgs(fields, values);
    if (!r.ok) return setErrors(r.errors);
    send(r.args);
  };
  return (
    <form
      noValidate
      aria-label="The form"
      className="space-y-2.5"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <SchemaFields fields={fields} values={values} errors={errors} setValues={setValues} setErrors={setErrors} />
      <div className="flex flex-wrap items-center gap-1.5 pt-0.5">
        <Button type="submit" variant="primary" disabled={busy}>
          Send
        </Button>
        <Button variant="danger" disabled={busy} className="sm:ml-auto" onClick={decline}>
          Decline
        </Button>
      </div>
    </form>
  );
}
