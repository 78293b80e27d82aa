/**
 * Content held to a screenful (360 px) with "Show all" when it is taller: a long markdown answer
 * or a big table in a card does not take the conversation over, and opens in place on request.
 */
import { useLayoutEffect, useRef, useState, type JSX, type ReactNode } from 'react';
import { Icon } from '../../../components/Icon';

const SCREEN_PX = 360;

export function Clipped({ children }: { children: ReactNode }): JSX.Element {
  const [open, setOpen] = useState(false);
  const [over, setOver] = useState(false);
  const inner = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = inner.current;
    if (!el) return;
    const measure = (): void => setOver(el.offsetHeight > SCREEN_PX + 8);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const clipped = over && !open;
  return (
    <div data-clipped={clipped ? 'true' : 'false'}>
      <div
        className={clipped ? 'overflow-hidden' : ''}
        style={
          clipped
            ? {
                maxHeight: SCREEN_PX,
                maskImage: 'linear-gradient(to bottom, black 80%, transparent)',
              }
            : undefined
        }
      >
        <div ref={inner}>{children}</div>
      </div>
      {over && (
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          className="mt-1 inline-flex items-center gap-1 rounded text-[11.5px] font-medium text-fg-muted hover:text-fg"
        >
          <Icon name={open ? 'chevronDown' : 'chevronRight'} size={11} />
          {open ? 'Show less' : 'Show all'}
        </button>
      )}
    </div>
  );
}
