/** An on/off switch: `role="switch"` with `aria-checked`, toggled by click, Space or Enter. */
import type { JSX } from 'react';

export function Switch({
  checked,
  onChange,
  label,
  disabled,
  size = 'md',
}: {
  checked: boolean;
  onChange: (next: boolean) => void;
  /** The accessible name, e.g. "Enable todo". */
  label: string;
  disabled?: boolean;
  size?: 'sm' | 'md';
}): JSX.Element {
  const track = size === 'sm' ? 'h-3.5 w-6' : 'h-4 w-7';
  const knob = size === 'sm' ? 'h-2.5 w-2.5' : 'h-3 w-3';
  const shift = size === 'sm' ? 'translate-x-2.5' : 'translate-x-3';
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={`relative inline-flex ${track} shrink-0 items-center rounded-full p-0.5 transition-colors disabled:opacity-45 ${
        checked ? 'bg-accent' : 'bg-line-strong'
      }`}
    >
      <span
        className={`${knob} rounded-full bg-white shadow-sm transition-transform ${checked ? shift : 'translate-x-0'}`}
      />
    </button>
  );
}
