/**
 * Tabs after the ARIA tabs pattern: one tab stop, arrow keys move between tabs, the panel is
 * labelled by its tab. Only the selected panel is rendered.
 */
import { useEffect, useId, useRef, type JSX, type KeyboardEvent, type ReactNode } from 'react';

export interface TabDef<K extends string> {
  key: K;
  label: ReactNode;
}

export function Tabs<K extends string>({
  tabs,
  value,
  onChange,
  label,
  children,
  focusKey = 0,
}: {
  tabs: TabDef<K>[];
  value: K;
  onChange: (key: K) => void;
  label: string;
  children: ReactNode;
  /** Changed (to anything but 0) by whoever wants the panel's first control to take focus. */
  focusKey?: number;
}): JSX.Element {
  const base = useId();
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focusKey === 0) return;
    const first = panel.current?.querySelector<HTMLElement>('input, textarea, select, button, [tabindex="0"]');
    (first ?? panel.current)?.focus();
  }, [focusKey]);
  const onKey = (e: KeyboardEvent): void => {
    const i = tabs.findIndex((t) => t.key === value);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    const t = tabs[next];
    if (!t) return;
    e.preventDefault();
    onChange(t.key);
    refs.current.get(t.key)?.focus();
  };
  return (
    <div>
      <div role="tablist" aria-label={label} className="flex gap-0.5 border-b border-line px-3" onKeyDown={onKey}>
        {tabs.map((t) => {
          const selected = t.key === value;
          return (
            <button
              key={t.key}
              ref={(el) => {
                if (el) refs.current.set(t.key, el);
                else refs.current.delete(t.key);
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${t.key}`}
              aria-selected={selected}
              aria-controls={`${base}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(t.key)}
              className={`ring-inset -mb-px border-b-2 px-2 py-1.5 text-xs font-medium transition-colors ${
                selected ? 'border-accent text-fg' : 'border-transparent text-fg-muted hover:text-fg'
              }`}
            >
              {t.label}
            </button>
          );
        })}
      </div>
      <div
        ref={panel}
        tabIndex={-1}
        role="tabpanel"
        id={`${base}-panel`}
        aria-labelledby={`${base}-tab-${value}`}
        className="px-3 py-2.5 outline-none"
      >
        {children}
      </div>
    </div>
  );
}
