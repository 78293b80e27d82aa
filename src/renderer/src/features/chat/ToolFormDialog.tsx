/**
 * The form for a tool chosen in the palette: fields from its schema, then `chat.invoke`. For an
 * MCP prompt the same form asks for its arguments, and the filled prompt goes into the composer.
 */
import { useMemo, useState, type FormEvent, type JSX } from 'react';
import type { PaletteEntry } from '../../../../shared/contract';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Kbd } from '../../components/Kbd';
import { modLabel } from '../../lib/platform';
import { invokeTool } from '../../stores/chat/actions';
import { fillFromPrompt } from '../../stores/palette-prompts';
import { fieldsOf, initialValues, toArgs, type FormValues } from './schema-form';
import { SchemaFields } from './SchemaField';

export function ToolFormDialog({
  entry,
  onClose,
  onDone,
}: {
  entry: PaletteEntry;
  onClose: () => void;
  onDone: () => void;
}): JSX.Element {
  const fields = useMemo(() => fieldsOf(entry.parameters), [entry]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const formId = `tool-form-${entry.plugin}-${entry.name}`;

  const submit = async (e?: FormEvent): Promise<void> => {
    e?.preventDefault();
    const r = toArgs(fields, values);
    if (!r.ok) {
      setErrors(r.errors);
      // Take the person to the first field that needs them.
      const first = fields.find((f) => r.errors[f.key]);
      if (first)
        document
          .getElementById(formId)
          ?.querySelector<HTMLElement>(`[data-field="${CSS.escape(first.key)}"] :is(input, textarea, select)`)
          ?.focus();
      return;
    }
    setSending(true);
    if (entry.kind === 'prompt') {
      const filled = await fillFromPrompt(entry, r.args);
      setSending(false);
      // Closed, not done: done clears the composer, which now holds the prompt.
      if (filled) onClose();
      return;
    }
    const ok = await invokeTool(entry, r.args);
    setSending(false);
    if (ok) onDone();
  };

  return (
    <Dialog
      title={
        <span>
          {entry.pluginName} <span className="text-fg-subtle">·</span> <span className="font-mono">{entry.name}</span>
        </span>
      }
      onClose={onClose}
      footer={
        <>
          <span className="mr-auto hidden items-center gap-1 text-[11px] text-fg-subtle sm:flex">
            <Kbd>{modLabel()}</Kbd>
            <Kbd>Enter</Kbd> to {entry.kind === 'prompt' ? 'fill in' : 'run'}
          </span>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" form={formId} variant="primary" disabled={sending}>
            {entry.kind === 'prompt' ? 'Fill in' : 'Run'}
          </Button>
        </>
      }
    >
      {entry.description && <p className="mb-3 text-[12.5px] text-fg-muted">{entry.description}</p>}
      {entry.kind === 'prompt' && (
        <p className="mb-3 text-[11.5px] text-fg-subtle">
          A prompt of this server: its text goes into the message box, where you can edit it before you send it.
        </p>
      )}
      <form
        id={formId}
        noValidate
        onSubmit={(e) => void submit(e)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
            e.preventDefault();
            void submit();
          }
        }}
        className="space-y-3"
      >
        <SchemaFields fields={fields} values={values} errors={errors} setValues={setValues} setErrors={setErrors} />
      </form>
    </Dialog>
  );
}
