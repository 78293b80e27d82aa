/**
 * A modal dialog on the native <dialog> element: the browser gives it the top layer, an inert
 * background, focus containment and Escape (which we route to `onClose` so state stays in React).
 * Mount it to open it; unmount it to close it. Mark the element to focus first with
 * `data-autofocus`; otherwise the first field of the body gets focus.
 */
import { useEffect, useId, useLayoutEffect, useRef, type JSX, type ReactNode } from 'react';
import { IconButton } from './Button';

export function Dialog({
  title,
  onClose,
  children,
  footer,
  width = 'w-[520px]',
  height = '',
  closeLabel = 'Close',
}: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  width?: string;
  /** A fixed height (a class), for a dialog whose pages differ in length: it keeps its size. */
  height?: string;
  closeLabel?: string;
}): JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // The latest onClose, for listeners installed once.
  const closeRef = useRef(onClose);
  useLayoutEffect(() => {
    closeRef.current = onClose;
  });

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!d.open) d.showModal();
    // showModal focuses the first focusable element, which is the header's close button. Prefer
    // what the dialog marks with data-autofocus, else its first field (React's autoFocus runs
    // before showModal and would be undone by it).
    const target =
      d.querySelector<HTMLElement>('[data-autofocus]') ??
      d.querySelector<HTMLElement>('[data-dialog-body] :is(input, select, textarea):not([disabled])');
    target?.focus();
    const onCancel = (e: Event): void => {
      // Only the dialog's own cancel (Escape). A file input inside it fires a `cancel` that
      // bubbles up here when the system's file picker is dismissed: that leaves the dialog open.
      if (e.target !== d) return;
      e.preventDefault();
      closeRef.current();
    };
    d.addEventListener('cancel', onCancel);
    return () => {
      d.removeEventListener('cancel', onCancel);
      if (d.open) d.close();
      // Give focus back to what had it, as native dialogs do when closed by the user.
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onMouseDown={(e) => {
        // A press on the backdrop (the dialog box itself, outside its content) closes it.
        if (e.target === ref.current) closeRef.current();
      }}
      className={`pb-pop m-auto max-h-[min(720px,calc(100vh-48px))] max-w-[calc(100vw-32px)] ${width} ${height} overflow-hidden rounded-xl border border-line bg-bg p-0 shadow-pop`}
    >
      <div className={`flex max-h-[inherit] flex-col ${height ? 'h-full' : ''}`}>
        <header className="flex items-center gap-2 border-b border-line px-4 py-2.5">
          <h2 id={titleId} className="min-w-0 flex-1 truncate text-[13px] font-semibold">
            {title}
          </h2>
          <IconButton icon="x" label={closeLabel} size="sm" onClick={() => closeRef.current()} />
        </header>
        <div data-dialog-body className="min-h-0 flex-1 overflow-y-auto px-4 py-3">
          {children}
        </div>
        {footer && (
          <footer className="flex items-center justify-end gap-2 border-t border-line bg-subtle px-4 py-2.5">
            {footer}
          </footer>
        )}
      </div>
    </dialog>
  );
}
