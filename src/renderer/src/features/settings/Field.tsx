/** A labelled form field of the Settings view, with its hint and its error under it. */
import type { JSX, ReactNode } from 'react';

/** The look of the Settings view's inputs (an invalid one is outlined red). */
export const control =
  'w-full rounded-md border border-line-strong bg-bg px-2 py-1 text-[13px] text-fg placeholder:text-fg-subtle focus-visible:border-accent aria-[invalid=true]:border-bad';

export function Field({
  label,
  hint,
  error,
  children,
  id,
}: {
  label: string;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
  id: string;
}): JSX.Element {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="text-xs font-medium text-fg">
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-[11.5px] text-fg-subtle">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-err`} className="text-[11.5px] text-bad">
          {error}
        </p>
      )}
    </div>
  );
}
