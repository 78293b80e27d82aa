/**
 * The prompt before a model's tool call runs: what will run, its arguments as a form from the
 * tool's schema (editable, checked here and again by the server), and the four answers. It takes
 * focus once when it appears (unless the person is typing), so the keyboard reaches it at once;
 * no key answers it by itself (Enter approving by accident is the mistake to avoid): the buttons
 * are reached with Tab.
 */
import { useEffect, useMemo, useRef, useState, type JSX } from 'react';
import type { ApprovalDecision } from '../../../../../shared/assistant';
import type { ChatMessage } from '../../../../../shared/contract';
import { Button } from '../../../components/Button';
import { Icon } from '../../../components/Icon';
import { Spinner } from '../../../components/Spinner';
import { approveCall } from '../../../stores/chat/model-actions';
import { ensurePalette, findTool, usePalette } from '../../../stores/palette';
import { fieldsOf, toArgs, valuesFrom, WHOLE, type FormValues } from '../schema-form';
import { SchemaField } from '../SchemaField';
import { useFocusOnce } from './focus-once';

const ANSWERS: Array<{ decision: ApprovalDecision; label: string; variant: 'primary' | 'secondary' | 'danger' }> = [
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
      const extra = fields.some((f) => f.key === WHOLE) ? {} : Object.fromEntries(Object.entries(args).filter(([k]) => !known.has(k)));
      sent = { ...extra, ...r.args };
    }
    setBusy(decision);
    setRefusal(null);
    const r = await approveCall(callId, decision, sent);
    setBusy(null);
    if (r.ok) return;
    setRefusal(r.message);
    const key = fieldOf(r.message, fields.map((f) => f.key));
    if (key) setErrors((e) => ({ ...e, [key]: r.message }));
  };

  const title = `Allow ${pluginName} to run ${m.tool ?? 'this tool'}?`;
  return (
    <div
      ref={card}
      tabIndex={-1}
      role="group"
      aria-label={title}
      data-approval-card
      className="overflow-hidden rounded-lg border border-accent/60 bg-bg shadow-[0_0_0_3px_var(--accent-soft)] outline-none focus-visible:border-accent"
    >
      <div className="flex items-start gap-2.5 px-3.5 pt-3">
        <span className="mt-0.5 grid h-6 w-6 shrink-0 place-items-center rounded-md bg-accent-soft text-accent" aria-hidden="true">
          <Icon name="shield" size={14} />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-[13px] font-semibold text-fg">
            Allow <span>{pluginName}</span> to run <code className="font-mono text-[12.5px]">{m.tool}</code>?
          </p>
          <p className="text-xs text-fg-muted">{entry?.description || 'The model asked to call this tool. Nothing runs until you answer.'}</p>
        </div>
      </div>
      <div className="space-y-2.5 px-3.5 py-3" aria-label="Arguments" role="group">
        {!paletteLoaded && !entry ? (
          <p className="flex items-center gap-2 text-xs text-fg-subtle">
            <Spinner /> Loading the tool’s form…
          </p>
        ) : fields.length === 0 ? (
          <p className="text-xs text-fg-subtle">No arguments.</p>
        ) : (
          fields.map((f) => (
            <div key={f.key} data-field={f.key}>
              <SchemaField
                field={f}
                value={values[f.key] ?? ''}
                error={errors[f.key]}
                onChange={(v) => {
                  setEdited(true);
                  setValues((s) => ({ ...s, [f.key]: v }));
                  if (errors[f.key]) setErrors(({ [f.key]: _gone, ...rest }) => rest);
                }}
              />
            </div>
          ))
        )}
        {refusal && (
          <p role="alert" className="rounded-md border border-bad/30 bg-bad-soft px-2.5 py-1.5 text-xs text-fg">
            {refusal}
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-1.5 border-t border-line bg-subtle px-3.5 py-2.5">
        {ANSWERS.map((a) => (
          <Button
            key={a.decision}
            size="md"
            variant={a.variant}
            disabled={busy !== null}
            className={a.decision === 'deny' ? 'sm:ml-auto' : ''}
            onClick={() => void answer(a.decision)}
          >
            {busy === a.decision && <Spinner size={11} />}
            {a.label}
          </Button>
        ))}
      </div>
    </div>
  );
}
