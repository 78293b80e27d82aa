/**
 * Adding or editing a model: provider, address, model id, API key; "Test connection" reaches the
 * server with what is typed (the latency and its models, or the precise error), and the models it
 * lists can be picked with a click. The key field never shows a stored key: leave it empty to
 * keep it, or remove it explicitly.
 */
import { useId, useState, type FormEvent, type JSX } from 'react';
import { PROVIDER_KINDS, PROVIDER_TITLES, type ModelCheck, type ProviderKind } from '../../../../shared/assistant';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { saveModel, testModel, useModels } from '../../stores/models';
import { control, Field } from './Field';
import {
  BASE_URL_HINT,
  checkDraft,
  checkText,
  MODEL_HINT,
  nameOf,
  saveInput,
  testInput,
  withProvider,
  type DraftErrors,
  type ModelDraft,
} from './model-form';

type Tested =
  { state: 'idle' } | { state: 'testing' } | { state: 'ok'; check: ModelCheck } | { state: 'failed'; message: string };

export function ModelForm({
  initial,
  onDone,
  onCancel,
}: {
  initial: ModelDraft;
  onDone: (saved: string) => void;
  onCancel: () => void;
}): JSX.Element {
  const keyStore = useModels((s) => s.view?.keyStore ?? 'the secret store');
  const discovered = useModels((s) => s.discovered);
  const [d, setD] = useState(initial);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [tested, setTested] = useState<Tested>({ state: 'idle' });
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const base = useId();
  const ids = {
    name: `${base}-name`,
    provider: `${base}-provider`,
    url: `${base}-url`,
    model: `${base}-model`,
    key: `${base}-key`,
  };
  const set = (change: Partial<ModelDraft>): void => {
    setD((x) => ({ ...x, ...change }));
    setSaveError(null);
  };
  const served =
    tested.state === 'ok'
      ? tested.check.models
      : (discovered?.find((s) => s.baseURL === d.baseURL.trim())?.models ?? []);

  const test = async (): Promise<void> => {
    setTested({ state: 'testing' });
    const r = await testModel(testInput(d));
    setTested(
      r.ok
        ? { state: 'ok', check: { latencyMs: r.latencyMs, models: r.models } }
        : { state: 'failed', message: r.message },
    );
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const problems = checkDraft(d);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setSaving(true);
    const r = await saveModel(saveInput(d));
    setSaving(false);
    if (r.ok) onDone(nameOf(d));
    else setSaveError(r.message);
  };

  const editing = initial.previousName !== undefined;
  const keyHint = d.removeKey
    ? 'The stored key is removed when you save.'
    : d.hasKey
      ? `A key is stored in ${keyStore}. Leave this empty to keep it.`
      : `Optional for servers on this computer. Kept in ${keyStore}, never shown again.`;
  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={editing ? `Edit ${initial.previousName}` : 'Add a model'}
      className="space-y-3"
    >
      <div className="grid grid-cols-2 gap-3">
        <Field id={ids.provider} label="Provider">
          <select
            id={ids.provider}
            value={d.provider}
            onChange={(e) => set(withProvider(d, e.target.value as ProviderKind))}
            className={control}
          >
            {PROVIDER_KINDS.map((p) => (
              <option key={p} value={p}>
                {PROVIDER_TITLES[p]}
              </option>
            ))}
          </select>
        </Field>
        <Field id={ids.name} label="Name" hint="How it is shown in Plugboard." error={errors.name}>
          <input
            id={ids.name}
            type="text"
            value={d.name}
            placeholder={d.model.trim() || 'Local Llama'}
            onChange={(e) => set({ name: e.target.value })}
            aria-invalid={errors.name ? true : undefined}
            className={control}
          />
        </Field>
      </div>
      <Field
        id={ids.url}
        label="Base URL"
        hint={
          d.provider === 'openai-compatible'
            ? 'Ollama 11434, LM Studio 1234, llama.cpp 8080; with /v1 at the end.'
            : 'Only for a proxy or a compatible gateway.'
        }
        error={errors.baseURL}
      >
        <input
          id={ids.url}
          type="url"
          value={d.baseURL}
          placeholder={BASE_URL_HINT[d.provider]}
          spellCheck={false}
          onChange={(e) => set({ baseURL: e.target.value })}
          aria-invalid={errors.baseURL ? true : undefined}
          aria-describedby={`${ids.url}-hint`}
          className={`${control} font-mono text-xs`}
        />
      </Field>
      <Field
        id={ids.model}
        label="Model"
        error={errors.model}
        hint={served.length === 0 ? 'Test the connection to see the models the server has.' : undefined}
      >
        <input
          id={ids.model}
          type="text"
          value={d.model}
          placeholder={MODEL_HINT[d.provider]}
          spellCheck={false}
          onChange={(e) => set({ model: e.target.value })}
          aria-invalid={errors.model ? true : undefined}
          className={`${control} font-mono text-xs`}
        />
        {served.length > 0 && (
          <div className="flex flex-wrap items-center gap-1 pt-0.5" role="group" aria-label="Models on this server">
            {served.slice(0, 16).map((m) => (
              <button
                key={m}
                type="button"
                aria-pressed={m === d.model.trim()}
                onClick={() => set({ model: m })}
                className={`rounded-md border px-1.5 py-px font-mono text-[11px] ${m === d.model.trim() ? 'border-accent bg-accent-soft text-fg' : 'border-line bg-subtle text-fg-muted hover:text-fg'}`}
              >
                {m}
              </button>
            ))}
          </div>
        )}
      </Field>
      <Field id={ids.key} label="API key" hint={keyHint}>
        <div className="flex items-center gap-2">
          <input
            id={ids.key}
            type="password"
            value={d.apiKey}
            autoComplete="new-password"
            spellCheck={false}
            disabled={d.removeKey}
            placeholder={d.hasKey ? '•••••••• (stored)' : d.provider === 'openai-compatible' ? 'none' : 'sk-…'}
            onChange={(e) => set({ apiKey: e.target.value })}
            aria-describedby={`${ids.key}-hint`}
            className={`${control} font-mono text-xs`}
          />
          {d.hasKey && (
            <Button
              size="sm"
              variant={d.removeKey ? 'secondary' : 'danger'}
              onClick={() => set({ removeKey: !d.removeKey, apiKey: '' })}
            >
              {d.removeKey ? 'Keep key' : 'Remove key'}
            </Button>
          )}
        </div>
      </Field>
      <label className="flex items-center gap-2 text-xs text-fg">
        <input
          type="checkbox"
          checked={d.makeDefault}
          onChange={(e) => set({ makeDefault: e.target.checked })}
          className="h-3.5 w-3.5 accent-[var(--accent)]"
        />
        Use it by default in every conversation
      </label>
      <div className="flex min-h-7 items-start gap-2" aria-live="polite">
        {tested.state === 'testing' && (
          <p className="flex items-center gap-1.5 text-xs text-fg-muted">
            <Spinner /> Reaching the server…
          </p>
        )}
        {tested.state === 'ok' && (
          <p className="flex items-center gap-1.5 text-xs text-ok" data-test-result="ok">
            <Icon name="check" size={12} />
            {checkText(tested.check)}
          </p>
        )}
        {tested.state === 'failed' && (
          <p className="flex items-start gap-1.5 text-xs text-bad" data-test-result="failed">
            <Icon name="alert" size={12} className="mt-0.5 shrink-0" />
            <span className="break-words">{tested.message}</span>
          </p>
        )}
      </div>
      {saveError && (
        <p role="alert" className="rounded-md border border-bad/30 bg-bad-soft px-2.5 py-1.5 text-xs text-fg">
          {saveError}
        </p>
      )}
      <div className="flex items-center gap-2 border-t border-line pt-3">
        <Button icon="plug" disabled={tested.state === 'testing'} onClick={() => void test()}>
          Test connection
        </Button>
        <span className="flex-1" />
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={saving}>
          {saving && <Spinner size={11} />}
          {editing ? 'Save changes' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
