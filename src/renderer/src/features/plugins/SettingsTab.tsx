/**
 * A plugin's settings form. Values are sent typed (boolean, number, string, or string[] for
 * multi-valued settings). Secrets are never shown or prefilled: the field says whether one is
 * set, and is only sent when something was typed into it.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type JSX } from 'react';
import type { PluginDetail, SettingView } from '../../../../shared/contract';
import { Button } from '../../components/Button';
import { WithBrowse } from '../../components/PathPicker';
import { configurePlugin, usePluginDetail } from '../../stores/plugin-detail';
import { usePlugins } from '../../stores/plugins';
import { useAppInfo } from '../../stores/app-info';

const input =
  'w-full rounded-md border border-line-strong bg-bg px-2 py-1 text-[13px] text-fg placeholder:text-fg-subtle focus-visible:border-accent';

function initial(s: SettingView): string | boolean {
  if (s.sensitive) return '';
  const v =
    s.value ?? (s.default === undefined ? null : Array.isArray(s.default) ? s.default.join('\n') : String(s.default));
  if (s.type === 'boolean') return v === 'true';
  if (s.multiple && v?.startsWith('[')) {
    try {
      const arr: unknown = JSON.parse(v);
      if (Array.isArray(arr)) return arr.map(String).join('\n');
    } catch {
      // Not JSON: shown as it is.
    }
  }
  return v ?? '';
}

function toValue(s: SettingView, raw: string | boolean): unknown {
  if (s.type === 'boolean') return raw === true;
  const text = String(raw);
  if (s.multiple)
    return text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  if (s.type === 'number') return text.trim() === '' ? null : Number(text);
  return text;
}

function Field({
  s,
  value,
  onChange,
  onClear,
}: {
  s: SettingView;
  value: string | boolean;
  onChange: (v: string | boolean) => void;
  onClear: () => void;
}): JSX.Element {
  const id = useId();
  const help = `${id}-help`;
  const label = (
    <label htmlFor={id} className="text-xs font-medium text-fg">
      {s.title || s.key}
      {s.required && (
        <span className="text-bad" aria-hidden="true">
          {' '}
          *
        </span>
      )}
      {s.required && <span className="sr-only"> (required)</span>}
    </label>
  );
  const described = s.description || s.sensitive || s.env ? help : undefined;
  let control: JSX.Element;
  if (s.type === 'boolean') {
    control = (
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={described}
        className="h-3.5 w-3.5 accent-[var(--accent)]"
      />
    );
  } else if (s.multiple) {
    control = (
      <textarea
        id={id}
        rows={3}
        value={String(value)}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={described}
        placeholder="One per line"
        className={`${input} font-mono text-xs`}
      />
    );
  } else {
    const type = s.sensitive ? 'password' : s.type === 'number' ? 'number' : 'text';
    control = (
      <input
        id={id}
        type={type}
        value={String(value)}
        min={s.min}
        max={s.max}
        autoComplete={s.sensitive ? 'new-password' : 'off'}
        spellCheck={false}
        placeholder={
          s.sensitive
            ? s.isSet
              ? 'set — type to replace'
              : 'not set'
            : s.type === 'directory'
              ? '/path/to/folder'
              : s.type === 'file'
                ? '/path/to/file'
                : ''
        }
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={described}
        className={`${input} ${s.type === 'directory' || s.type === 'file' ? 'font-mono text-xs' : ''}`}
      />
    );
  }
  if (s.type === 'directory' || s.type === 'file') {
    control = (
      <WithBrowse
        kind={s.type}
        title={s.title || s.key}
        value={String(value)}
        multiple={s.multiple === true}
        onChange={onChange}
      >
        {control}
      </WithBrowse>
    );
  }
  return (
    <div className={s.type === 'boolean' ? 'flex items-start gap-2' : 'space-y-1'} data-setting-key={s.key}>
      {s.type === 'boolean' ? control : label}
      <div className="min-w-0 flex-1 space-y-0.5">
        {s.type === 'boolean' ? label : control}
        {described && (
          <p id={help} className="text-[11px] text-fg-subtle">
            {s.description}
            {s.sensitive && (
              <span className="text-fg-muted">{`${s.description ? ' · ' : ''}secret, ${s.isSet ? 'set' : 'not set'}`}</span>
            )}
            {s.env && (
              <span>
                {` · passed as `}
                <code className="font-mono">{s.env}</code>
              </span>
            )}
          </p>
        )}
        {s.sensitive && s.isSet && (
          <Button size="sm" variant="ghost" aria-label={`Clear ${s.title || s.key}`} onClick={onClear}>
            Clear secret
          </Button>
        )}
      </div>
    </div>
  );
}

/**
 * After a save that may have started the plugin (it was not running): what became of it, live,
 * from its health events, so "starting" never stays on screen after the plugin is up or failed.
 */
function AfterSave({ id, name, since }: { id: string; name: string; since: number }): JSX.Element | null {
  const health = usePlugins((s) => s.byId[id]?.health);
  // Only what happened after the save: an event newer than the one shown then.
  if (!health || health.at === since) return null;
  const text =
    health.state === 'starting'
      ? `Starting ${name}…`
      : health.state === 'ready' || health.state === 'busy'
        ? `${name} is running.`
        : health.state === 'failed' || health.state === 'crashed' || health.state === 'unresponsive'
          ? `${name} could not start: see the error above.`
          : null;
  return text === null ? null : (
    <span className={health.state === 'ready' || health.state === 'busy' ? 'text-ok' : ''}>{` — ${text}`}</span>
  );
}

export function SettingsTab({ detail }: { detail: PluginDetail }): JSX.Element {
  const health = usePlugins((s) => s.byId[detail.id]?.health);
  // Set by a save made while the plugin was not running: the health event shown at that moment.
  const [watchSince, setWatchSince] = useState<number | null>(null);
  const secretStore = useAppInfo((s) => s.info?.secretStore);
  // Only the fields the person edited: the others show the current values as they change (say,
  // from another window), and saving leaves them alone.
  const [edited, setEdited] = useState<Record<string, string | boolean>>({});
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const focusSetting = usePluginDetail((s) => s.focusSetting);
  useEffect(() => {
    if (!focusSetting) return;
    // After the tab's own focus (its panel takes focus when shown), the setting a failure blamed.
    const t = setTimeout(() => {
      const field = form.current?.querySelector(`[data-setting-key="${CSS.escape(focusSetting)}"]`);
      const control = field?.querySelector<HTMLElement>('input, textarea');
      if (!control) return;
      control.focus();
      control.scrollIntoView({ block: 'nearest' });
      usePluginDetail.setState({ focusSetting: undefined });
    }, 0);
    return () => clearTimeout(t);
  }, [focusSetting]);
  if (detail.settings.length === 0) return <p className="text-xs text-fg-subtle">This plugin has no settings.</p>;

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const values: Record<string, unknown> = {};
    for (const s of detail.settings) {
      const raw = edited[s.key];
      if (raw === undefined || raw === initial(s)) continue;
      values[s.key] = toValue(s, raw);
    }
    if (Object.keys(values).length === 0) return setResult({ ok: true, text: 'Nothing changed.' });
    setSaving(true);
    const idle = health && !['ready', 'busy', 'starting', 'disabled'].includes(health.state);
    const r = await configurePlugin(detail.id, values);
    setSaving(false);
    setResult(r.ok ? { ok: true, text: r.detail || 'Saved.' } : { ok: false, text: r.message });
    setWatchSince(r.ok && idle && health ? health.at : null);
    // Saved fields show the stored values again (configure has reloaded them), so later changes
    // made elsewhere show too; a field edited while saving keeps its newer edit.
    if (r.ok) {
      setEdited((d) => {
        const rest = { ...d };
        for (const k of Object.keys(values)) if (rest[k] === edited[k]) delete rest[k];
        return rest;
      });
    }
  };

  return (
    <form ref={form} onSubmit={(e) => void submit(e)} className="space-y-3" aria-label={`${detail.name} settings`}>
      {detail.settings.map((s) => (
        <Field
          key={s.key}
          s={s}
          value={edited[s.key] ?? initial(s)}
          onChange={(v) => setEdited((d) => ({ ...d, [s.key]: v }))}
          onClear={() =>
            void configurePlugin(detail.id, { [s.key]: null }).then((r) =>
              setResult(r.ok ? { ok: true, text: `Cleared ${s.title || s.key}.` } : { ok: false, text: r.message }),
            )
          }
        />
      ))}
      <div className="flex items-center gap-2">
        <Button type="submit" variant="primary" size="sm" disabled={saving}>
          Save settings
        </Button>
        {result && (
          <p
            role={result.ok ? undefined : 'alert'}
            aria-live="polite"
            className={`text-xs ${result.ok ? 'text-fg-muted' : 'text-bad'}`}
          >
            {result.text}
            {result.ok && watchSince !== null && <AfterSave id={detail.id} name={detail.name} since={watchSince} />}
          </p>
        )}
      </div>
      {secretStore && detail.settings.some((s) => s.sensitive) && (
        <p className="text-[11px] text-fg-subtle">Secrets are kept in {secretStore}.</p>
      )}
    </form>
  );
}
