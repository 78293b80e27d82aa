/**
 * The prompt before a model's tool call runs: what will run, its arguments as a form from the
 * tool's schema (editable, checked here and again by the server), and the four answers. It takes
 * focus once when it appears (unless the person is typing), so the keyboard reaches it at once;
 * no key answers it by itself (Enter approving by accident is the mistake to avoid): the buttons
 * are reached with Tab. Above the form, why it asks where that is not just the policy (CallNotes):
 * text carried from another plugin's result, a definition that changed since it was approved,
 * what the plugin says of the tool (hints), and text hidden in the arguments.
 */
import { useEffect, useMemo, useRef, useState, type JSX } from 'react';
import type { ApprovalDecision } from '../../../../../shared/assistant';
import type { ChatMessage } from '../../../../../shared/contract';
import { Spinner } from '../../../components/Spinner';
import { approveCall } from '../../../stores/chat/model-actions';
import { focusComposer } from '../../../stores/ui';
import { ensurePalette, findTool, usePalette } from '../../../stores/palette';
import { fieldsOf, toArgs, valuesFrom, WHOLE, type FormValues } from '../schema-form';
import { SchemaFields } from '../SchemaField';
import { ApprovalFrame, type Answer } from './ApprovalFrame';
import { CallNotes } from './CallNotes';
import { VisibleText } from '../../../components/VisibleText';
import { useFocusOnce } from './focus-once';

const ANSWERS: Answer[] = [
  { decision: 'once', label: 'Allow once', variant: 'primary' },
  { decision: 'conversation', label: 'Allow for this conversation', variant: 'secondary' },
  { decision: 'always', label: 'Always allow', variant: 'secondary' },
  { decision: 'deny', label: 'Deny', variant: 'danger' },
];

/** The field a server message is about ("arguments.name must match…"), if it names one. */
function fieldOf(message: string, keys: readonly string[]): string | undefined {
  const m = /arguments\.([A-Za-z0-9_$-]+)/.exec(message);
  return m && keys.includes(m[1] as string) ? m[1] : undefined;
}

export function ApprovalCard({ m, pluginName }: { m: ChatMessage; pluginName: string }): JSX.Element {
  const entries = usePalette((s) => s.entries);
  const paletteLoaded = usePalette((s) => s.loaded);
  const entry = findTool(entries, m.pluginId, m.tool);
  const args = useMemo(() => m.args ?? {}, [m.args]);
  const fields = useMemo(() => fieldsOf(entry?.parameters ?? {}), [entry]);
  const [values, setValues] = useState<FormValues>(() => valuesFrom(fields, args));
  const [edited, setEdited] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState<ApprovalDecision | null>(null);
  const card = useRef<HTMLDivElement>(null);
  const callId = m.call?.id ?? '';

  useEffect(() => void ensurePalette(), []);
  // The schema arrived after the first render: the form is rebuilt from the call's arguments,
  // unless the person has started editing the fallback JSON field.
  useEffect(() => {
    if (!edited) setValues(valuesFrom(fields, args));
  }, [fields, args, edited]);
  useFocusOnce(m.id, card);

  const answer = async (decision: ApprovalDecision): Promise<void> => {
    let sent: Record<string, unknown> | undefined;
    if (edited && decision !== 'deny') {
      const r = toArgs(fields, values);
      if (!r.ok) {
        setErrors(r.errors);
        setRefusal('Some arguments need fixing before the call can run.');
        return;
      }
      // Keys the form does not show are kept as the model gave them.
      const known = new Set(fields.map((f) => f.key));
      const extra = fields.some((f) => f.key === WHOLE)
        ? {}
        : Object.fromEntries(Object.entries(args).filter(([k]) => !known.has(k)));
      sent = { ...extra, ...r.args };
    }
    setBusy(decision);
    setRefusal(null);
    const r = await approveCall(callId, decision, sent);
    setBusy(null);
    // Answered, the card goes: the keyboard goes back to where the person types (a card waiting
    // after this one takes it from there when it shows).
    if (r.ok) return focusComposer();
    setRefusal(r.message);
    const key = fieldOf(
      r.message,
      fields.map((f) => f.key),
    );
    if (key) setErrors((e) => ({ ...e, [key]: r.message }));
  };

  const title = `Allow ${pluginName} to run ${m.tool ?? 'this tool'}?`;
  return (
    <ApprovalFrame
      cardRef={card}
      title={title}
      heading={
        <>
          Allow <span>{pluginName}</span> to run{' '}
          <code className="font-mono text-[12.5px]">
            <VisibleText text={m.tool ?? ''} name />
          </code>
          ?
        </>
      }
      subtitle={
        m.call?.fromApp ? (
          `${pluginName}’s App asked to call this tool. Nothing runs until you answer.`
        ) : entry?.description ? (
          <span className="whitespace-pre-wrap">
            <VisibleText text={entry.description} />
          </span>
        ) : (
          'The model asked to call this tool. Nothing runs until you answer.'
        )
      }
      bodyLabel="Arguments"
      refusal={refusal}
      answers={ANSWERS}
      busy={busy}
      onAnswer={(d) => void answer(d)}
    >
      {m.call && <CallNotes call={m.call} pluginName={pluginName} tool={m.tool ?? ''} args={args} />}
      {!paletteLoaded && !entry ? (
        <p className="flex items-center gap-2 text-xs text-fg-subtle">
          <Spinner /> Loading the tool’s form…
        </p>
      ) : fields.length === 0 ? (
        <p className="text-xs text-fg-subtle">No arguments.</p>
      ) : (
        <SchemaFields
          fields={fields}
          values={values}
          errors={errors}
          setValues={setValues}
          setErrors={setErrors}
          onEdit={() => setEdited(true)}
        />
      )}
    </ApprovalFrame>
  );
}
