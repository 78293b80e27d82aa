/** A settings section's title and the sentence under it. */
import type { JSX, ReactNode } from 'react';

export function SectionHead({ title, children }: { title: string; children: ReactNode }): JSX.Element {
  return (
    <div>
      <h3 className="text-[13px] font-semibold text-fg">{title}</h3>
      <p className="text-xs text-fg-muted">{children}</p>
    </div>
  );
}
