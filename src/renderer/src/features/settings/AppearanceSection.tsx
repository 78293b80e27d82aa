/** Settings → Appearance: the theme, as the toolbar's button and Mod+Shift+L switch it. */
import type { JSX } from 'react';
import { Icon, type IconName } from '../../components/Icon';
import { setTheme, useUi, type ThemePref } from '../../stores/ui';

const THEMES: Array<{ key: ThemePref; label: string; icon: IconName; note: string }> = [
  { key: 'system', label: 'System', icon: 'monitor', note: 'Follows your computer' },
  { key: 'light', label: 'Light', icon: 'sun', note: 'Always light' },
  { key: 'dark', label: 'Dark', icon: 'moon', note: 'Always dark' },
];

export function AppearanceSection(): JSX.Element {
  const theme = useUi((s) => s.theme);
  return (
    <section aria-label="Appearance" className="space-y-3">
      <div>
        <h3 className="text-[13px] font-semibold text-fg">Appearance</h3>
        <p className="text-xs text-fg-muted">How Plugboard looks in this window and the next time it opens.</p>
      </div>
      <div role="radiogroup" aria-label="Theme" className="grid grid-cols-3 gap-2">
        {THEMES.map((t) => (
          <button
            key={t.key}
            type="button"
            role="radio"
            aria-checked={theme === t.key}
            onClick={() => setTheme(t.key)}
            className={`flex flex-col items-start gap-1 rounded-lg border px-3 py-2.5 text-left transition-colors ${
              theme === t.key ? 'border-accent bg-accent-soft' : 'border-line hover:bg-muted'
            }`}
          >
            <Icon name={t.icon} size={16} className={theme === t.key ? 'text-accent' : 'text-fg-muted'} />
            <span className="text-[13px] font-medium text-fg">{t.label}</span>
            <span className="text-[11px] text-fg-subtle">{t.note}</span>
          </button>
        ))}
      </div>
    </section>
  );
}
