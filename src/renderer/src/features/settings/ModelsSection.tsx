/**
 * Settings → Models: the models the person connected, which one answers by default, each one's
 * test, edit and removal, and the tokens its answers took; the form to add or edit one
 * (ModelForm.tsx).
 */
import { useEffect, useState, type JSX } from 'react';
import { PROVIDER_TITLES, type ModelView } from '../../../../shared/assistant';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { loadModelUsage, useAssistantSettings } from '../../stores/assistant-settings';
import { discoverModels, loadModels, removeModel, setDefaultModel, testModel, useModels } from '../../stores/models';
import { totalsText } from '../chat/answer-text';
import { checkText, draftOf, newDraft, type ModelDraft } from './model-form';
import { ModelForm } from './ModelForm';

const SHORT_TITLE = {
  'openai-compatible': 'OpenAI-compatible',
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'agent-plugin': 'Agent plugin',
} as const;

type RowNote = { ok: boolean; text: string } | 'testing' | null;

function ModelRow({ m, onEdit }: { m: ModelView; onEdit: () => void }): JSX.Element {
  const [note, setNote] = useState<RowNote>(null);
  const [confirming, setConfirming] = useState(false);
  const used = useAssistantSettings((s) => s.usage?.find((u) => u.model === m.name));
  // An installed agent plugin is listed as a model: nothing here to test, edit or remove.
  const agent = m.provider === 'agent-plugin';
  const test = async (): Promise<void> => {
    setNote('testing');
    const r = await testModel({ name: m.name });
    setNote(r.ok ? { ok: true, text: checkText(r) } : { ok: false, text: r.message });
  };
  const act = async (p: Promise<{ ok: true } | { ok: false; message: string }>): Promise<void> => {
    const r = await p;
    if (!r.ok) setNote({ ok: false, text: r.message });
  };
  return (
    <li className="px-3 py-2.5" data-model={m.name}>
      <div className="flex items-center gap-2">
        <span className="min-w-0 truncate text-[13px] font-semibold text-fg">{m.name}</span>
        {m.isDefault && (
          <span className="shrink-0 rounded-full bg-accent-soft px-1.5 py-px text-[10.5px] font-medium text-accent">
            Default
          </span>
        )}
        <span className="flex-1" />
        {agent ? (
          <span className="shrink-0 text-[11px] text-fg-subtle">
            An installed plugin: choose it in the composer; uninstall the plugin to remove it.
          </span>
        ) : (
          <div className="flex shrink-0 items-center gap-0.5">
            {!m.isDefault && (
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Make ${m.name} the default`}
                onClick={() => void act(setDefaultModel(m.name))}
              >
                Make default
              </Button>
            )}
            <Button
              size="sm"
              variant="ghost"
              icon="plug"
              aria-label={`Test ${m.name}`}
              disabled={note === 'testing'}
              onClick={() => void test()}
            >
              Test
            </Button>
            <Button size="sm" variant="ghost" icon="pencil" aria-label={`Edit ${m.name}`} onClick={onEdit}>
              Edit
            </Button>
            <Button
              size="sm"
              variant="ghost"
              icon="trash"
              aria-label={`Remove ${m.name}`}
              onClick={() => setConfirming(true)}
            >
              Remove
            </Button>
          </div>
        )}
      </div>
      <dl className="mt-0.5 grid grid-cols-[auto_1fr] gap-x-3 text-xs">
        <dt className="text-fg-subtle">Provider</dt>
        <dd
          className="min-w-0 truncate text-fg-muted"
          title={
            m.provider === 'agent-plugin'
              ? 'A Mehrhof agent plugin: it runs its model and asks Plugboard for tools'
              : PROVIDER_TITLES[m.provider]
          }
        >
          {SHORT_TITLE[m.provider]}
        </dd>
        <dt className="text-fg-subtle">{agent ? 'Plugin' : 'Model'}</dt>
        <dd className="min-w-0 truncate font-mono text-[11.5px] text-fg-muted">{m.model}</dd>
        {!agent && (
          <>
            <dt className="text-fg-subtle">Address</dt>
            <dd className="min-w-0 truncate font-mono text-[11.5px] text-fg-muted" title={m.baseURL ?? undefined}>
              {m.baseURL ?? 'the provider’s own'}
            </dd>
            <dt className="text-fg-subtle">API key</dt>
            <dd className="text-fg-muted">{m.hasKey ? 'stored' : 'none'}</dd>
          </>
        )}
        <dt className="text-fg-subtle">Used</dt>
        <dd
          className="text-fg-muted tabular-nums"
          data-model-usage
          title="Over every conversation; ≈ where the server gave no counts and these are estimates"
        >
          {used ? totalsText(used) : 'no answers yet'}
        </dd>
      </dl>
      {confirming && (
        <div
          role="alert"
          className="mt-2 flex items-center gap-2 rounded-md border border-bad/30 bg-bad-soft px-2.5 py-1.5 text-xs text-fg"
        >
          <span className="flex-1">
            Remove {m.name}
            {m.hasKey ? ' and its stored key' : ''}? Conversations that use it will use the default model.
          </span>
          <Button size="sm" onClick={() => setConfirming(false)}>
            Keep
          </Button>
          <Button
            size="sm"
            variant="danger"
            aria-label={`Confirm removing ${m.name}`}
            onClick={() => void act(removeModel(m.name))}
          >
            Remove
          </Button>
        </div>
      )}
      {note === 'testing' && (
        <p className="mt-1 flex items-center gap-1.5 text-xs text-fg-muted">
          <Spinner /> Reaching the server…
        </p>
      )}
      {note && note !== 'testing' && (
        <p className={`mt-1 flex items-start gap-1.5 text-xs ${note.ok ? 'text-ok' : 'text-bad'}`} aria-live="polite">
          <Icon name={note.ok ? 'check' : 'alert'} size={12} className="mt-0.5 shrink-0" />
          <span className="break-words">{note.text}</span>
        </p>
      )}
    </li>
  );
}

export function ModelsSection({ startAdding }: { startAdding: boolean }): JSX.Element {
  const view = useModels((s) => s.view);
  const loadError = useModels((s) => s.loadError);
  const [editing, setEditing] = useState<ModelDraft | null>(() =>
    startAdding ? newDraft((useModels.getState().view?.models.length ?? 0) === 0) : null,
  );
  useEffect(() => {
    void loadModels();
    void discoverModels();
    void loadModelUsage();
  }, []);
  // "Add a model" from elsewhere while Settings is open starts the form too.
  useEffect(() => {
    if (startAdding) setEditing((e) => e ?? newDraft((useModels.getState().view?.models.length ?? 0) === 0));
  }, [startAdding]);
  const models = view?.models ?? [];

  if (editing) {
    return (
      <section aria-label="Models" className="space-y-3">
        <h3 className="text-[13px] font-semibold text-fg">
          {editing.previousName ? `Edit ${editing.previousName}` : 'Add a model'}
        </h3>
        <ModelForm
          key={editing.previousName ?? 'new'}
          initial={editing}
          onCancel={() => setEditing(null)}
          onDone={() => setEditing(null)}
        />
      </section>
    );
  }
  return (
    <section aria-label="Models" className="space-y-3">
      <div className="flex items-start gap-3">
        <div className="min-w-0 flex-1">
          <h3 className="text-[13px] font-semibold text-fg">Models</h3>
          <p className="text-xs text-fg-muted">
            The language models that answer plain messages and call your plugins’ tools. Each conversation can choose
            its own in the composer.
          </p>
        </div>
        <Button variant="primary" size="sm" icon="plus" onClick={() => setEditing(newDraft(models.length === 0))}>
          Add a model
        </Button>
      </div>
      {loadError && <p className="text-xs text-bad">Could not list the models: {loadError}</p>}
      {!view && !loadError && (
        <p className="flex items-center gap-2 text-xs text-fg-subtle">
          <Spinner /> Loading…
        </p>
      )}
      {view && models.length === 0 && (
        <div className="rounded-lg border border-dashed border-line-strong px-4 py-6 text-center">
          <p className="text-[13px] font-medium text-fg">No model yet</p>
          <p className="mt-1 text-xs text-fg-muted">
            Connect Ollama, LM Studio or another server on this computer, or OpenAI or Anthropic with an API key.
          </p>
        </div>
      )}
      {models.length > 0 && (
        <ul className="divide-y divide-line rounded-lg border border-line" aria-label="Connected models">
          {models.map((m) => (
            <ModelRow key={m.name} m={m} onEdit={() => setEditing(draftOf(m))} />
          ))}
        </ul>
      )}
      {view && (
        <p className="text-[11px] text-fg-subtle">
          API keys are kept in {view.keyStore}; Plugboard never shows them again.
        </p>
      )}
    </section>
  );
}
