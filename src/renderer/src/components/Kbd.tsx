import type { JSX, ReactNode } from 'react';

/** A key cap, for shortcut hints. */
export function Kbd({ children }: { children: ReactNode }): JSX.Element {
  return (
    <kbd className="inline-flex h-[18px] min-w-[18px] items-center justify-center rounded border border-line-strong bg-subtle px-1 font-sans text-[11px] leading-none text-fg-muted">
      {children}
    </kbd>
  );
}
