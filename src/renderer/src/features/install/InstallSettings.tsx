/**
 * The install preview's settings form (issue 21: install in one step): every setting the plugin
 * declares, so it is installed configured instead of failing until someone finds its Settings tab.
 * Folder and file settings are typed as paths or chosen with Browse… (components/PathPicker.tsx),
 * and their defaults are shown as the paths they resolve to (`/home/ada/Documents`, not `${HOME}/Documents`). Secrets are password fields. What is
 * left empty keeps the default; a required setting without a default is marked.
 */
import { useId, type JSX } from 'react';
import type { InstallPreviewView } from '../../../../shared/contract';
import type { SettingSpec } from '../../../../shared/plugin';
import { WithBrowse } from '../../components/PathPicker';
import { setInstallSetting, useInstallSettings } from '../../stores/install-settings';

const input =
  'w-full rounded-md border border-line-strong bg-bg px-2 py-1 text-[13px] text-fg placeholder:text-fg-subtle focus-visible:border-accent';

function shown(v: string | number | boolean | string[] | undefined): string {
  if (v === undefined) return '';
  return Array.isArray(v) ? v.join('\n') : String(v);
}

function Field({
  s,
  token,
  fallback,
}: {
  s: SettingSpec;
  token: string;
  fallback: string | number | boolean | string[] | undefined;
}): JSX.Element {
  const id = useId();
  const value = useInstallSettings((st) => (st.token === token ? st.values[s.key] : undefined));
  const path = s.type === 'directory' || s.type === 'file';
  const help = `${id}-help`;
  const label = (
    <label htmlFor={id} className="text-xs font-medium text-fg">
      {s.title || s.key}
      {s.required && fallback === undefined && (
        <>
          <span className="text-bad" aria-hidden="true">
            {' '}
            *
          </span>
          <span className="sr-only"> (required)</span>
        </>
      )}
    </label>
  );
  const defaultText =
    fallback === undefined || s.type === 'boolean'
      ? null
      : `Default: ${Array.isArray(fallback) ? fallback.join(', ') || 'none' : String(fallback)}`;
  const note = [s.description, defaultText, s.sensitive ? 'secret, kept in the secret store' : null]
    .filter(Boolean)
    .join(' · ');
  const set = (v: string | boolean): void => setInstallSetting(token, s.key, v);
  let control: JSX.Element;
  if (s.type === 'boolean') {
    control = (
      <input
        id={id}
        type="checkbox"
        checked={typeof value === 'boolean' ? value : fallback === true}
        onChange={(e) => set(e.target.checked)}
        aria-describedby={note ? help : undefined}
        className="h-3.5 w-3.5 accent-[var(--accent)]"
      />
    );
  } else if (s.multiple) {
    control = (
      <textarea
        id={id}
        rows={2}
        value={typeof value === 'string' ? value : ''}
        placeholder={shown(fallback) || (path ? 'One path per line' : 'One per line')}
        onChange={(e) => set(e.target.value)}
        aria-describedby={note ? help : undefined}
        className={`${input} font-mono text-xs`}
      />
    );
  } else {
    control = (
      <input
        id={id}
        type={s.sensitive ? 'password' : s.type === 'number' ? 'number' : 'text'}
        value={typeof value === 'string' ? value : ''}
        min={s.min}
        max={s.max}
        autoComplete={s.sensitive ? 'new-password' : 'off'}
        spellCheck={false}
        placeholder={
          shown(fallback) || (s.type === 'directory' ? '/path/to/folder' : s.type === 'file' ? '/path/to/file' : '')
        }
        onChange={(e) => set(e.target.value)}
        aria-describedby={note ? help : undefined}
        className={`${input} ${path ? 'font-mono text-xs' : ''}`}
      />
    );
  }
  if (path) {
    control = (
      <WithBrowse
        kind={s.type === 'file' ? 'file' : 'directory'}
        title={s.title || s.key}
        value={typeof value === 'string' ? value : ''}
        fallback={Array.isArray(fallback) ? fallback.at(-1) : typeof fallback === 'string' ? fallback : undefined}
        multiple={s.multiple === true}
        onChange={set}
      >
        {control}
      </WithBrowse>
    );
  }
  return (
    <div className={s.type === 'boolean' ? 'flex items-start gap-2' : 'space-y-1'} data-install-setting={s.key}>
      {s.type === 'boolean' ? control : label}
      <div className="min-w-0 flex-1 space-y-0.5">
        {s.type === 'boolean' ? label : control}
        {note && (
          <p id={help} className="text-[11px] break-words text-fg-subtle">
            {note}
          </p>
        )}
      </div>
    </div>
  );
}

export function InstallSettings({
  token,
  preview,
}: {
  token: string;
  preview: InstallPreviewView;
}): JSX.Element | null {
  const heading = useId();
  const settings = preview.settings ?? [];
  if (settings.length === 0) return null;
  return (
    <section className="mt-4 text-[13px]" aria-labelledby={heading} data-install-settings>
      <h3 id={heading} className="mb-1.5 text-[11px] font-semibold tracking-wide text-fg-subtle uppercase">
        Settings
      </h3>
      <div className="space-y-2.5">
        {settings.map((s) => (
          <Field key={s.key} s={s} token={token} fallback={preview.settingDefaults?.[s.key]} />
        ))}
      </div>
      <p className="mt-1.5 text-[11px] text-fg-subtle">
        Empty fields keep their default. You can change these later in the plugin’s Settings.
      </p>
    </section>
  );
}
