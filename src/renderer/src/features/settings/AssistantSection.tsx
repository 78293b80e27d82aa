/**
 * Settings → Assistant: how many rounds of tool calls a turn may take, and the budgets that decide
 * what each model request carries (how many tools, how many tokens of their declarations and of
 * the plugins' instructions). Saved together; the server checks them again.
 */
import { useEffect, useId, useState, type FormEvent, type JSX } from 'react';
import { DEFAULT_ASSISTANT_SETTINGS } from '../../../../shared/assistant';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { loadAssistantSettings, saveAssistantSettings, useAssistantSettings } from '../../stores/assistant-settings';
import {
  checkAssistantDraft,
  draftOf,
  rangeText,
  SETTINGS,
  type AssistantDraft,
  type SettingKey,
} from './assistant-form';
import { control, Field } from './Field';

type Saved = { ok: boolean; text: string } | null;

export function AssistantSection(): JSX.Element {
  const settings = useAssistantSettings((s) => s.settings);
  const loadError = useAssistantSettings((s) => s.loadError);
  const [draft, setDraft] = useState<AssistantDraft | null>(null);
  const [errors, setErrors] = useState<Partial<Record<SettingKey, string>>>({});
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<Saved>(null);
  const base = useId();
  useEffect(() => void loadAssistantSettings(), []);
  // The form starts from what the server has, once it is read.
  useEffect(() => {
    if (settings) setDraft((d) => d ?? draftOf(settings));
  }, [settings]);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (!settings || !draft) return;
    const r = checkAssistantDraft(draft, settings);
    setErrors(r.ok ? {} : r.errors);
    if (!r.ok) return;
    if (Object.keys(r.change).length === 0) {
      setSaved({ ok: true, text: 'Nothing changed.' });
      return;
    }
    setSaving(true);
    const out = await saveAssistantSettings(r.change);
    setSaving(false);
    setSaved(
      out.ok ? { ok: true, text: 'Saved: the next model request uses them.' } : { ok: false, text: out.message },
    );
    const now = useAssistantSettings.getState().settings;
    if (out.ok && now) setDraft(draftOf(now));
  };

  return (
    <section aria-label="Assistant" className="space-y-3">
      <div>
        <h3 className="text-[13px] font-semibold text-fg">Assistant</h3>
        <p className="text-xs text-fg-muted">
          How far a model may go in one turn, and how much of your plugins each request to it carries.
        </p>
      </div>
      {loadError && <p className="text-xs text-bad">Could not read the assistant’s settings: {loadError}</p>}
      {!draft && !loadError && (
        <p className="flex items-center gap-2 text-xs text-fg-subtle">
          <Spinner /> Loading…
        </p>
      )}
      {draft && (
        <form aria-label="Assistant settings" noValidate onSubmit={(e) => void submit(e)} className="space-y-3">
          <div className="grid grid-cols-2 gap-x-4 gap-y-3">
            {SETTINGS.map(({ key, label, hint }) => {
              const id = `${base}-${key}`;
              return (
                <Field
                  key={key}
                  id={id}
                  label={label}
                  hint={`${hint} ${rangeText(key)}; ${DEFAULT_ASSISTANT_SETTINGS[key].toLocaleString('en-US')} by default.`}
                  error={errors[key]}
                >
                  <input
                    id={id}
                    inputMode="numeric"
                    className={`${control} tabular-nums`}
                    value={draft[key]}
                    aria-invalid={errors[key] ? true : undefined}
                    aria-describedby={errors[key] ? `${id}-err` : `${id}-hint`}
                    onChange={(e) => {
                      setDraft({ ...draft, [key]: e.target.value });
                      setSaved(null);
                    }}
                  />
                </Field>
              );
            })}
          </div>
          <div className="flex items-center gap-2">
            <Button type="submit" variant="primary" disabled={saving}>
              {saving && <Spinner size={11} />}
              Save
            </Button>
            <Button
              onClick={() => {
                setDraft(draftOf(DEFAULT_ASSISTANT_SETTINGS));
                setErrors({});
                setSaved(null);
              }}
            >
              Use the defaults
            </Button>
            {saved && (
              <p
                className={`flex items-center gap-1.5 text-xs ${saved.ok ? 'text-ok' : 'text-bad'}`}
                role="status"
                data-saved={saved.ok ? 'ok' : 'failed'}
              >
                <Icon name={saved.ok ? 'check' : 'alert'} size={12} />
                {saved.text}
              </p>
            )}
          </div>
        </form>
      )}
    </section>
  );
}
