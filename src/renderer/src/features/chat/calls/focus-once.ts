/**
 * A card that needs the person's answer (an approval, a question) takes the focus once when it
 * appears, so the keyboard reaches it at once; not from under someone typing their next message
 * (Tab and the Stop button still reach it then).
 */
import { useEffect, type RefObject } from 'react';

/** Cards focused already: a row scrolled out and back in mounts again, and must not take focus twice. */
const focused = new Set<string>();

/** Focuses `target` the first time `waiting` is true for the card `id`. */
export function useFocusOnce(id: string, target: RefObject<HTMLElement | null>, waiting = true): void {
  useEffect(() => {
    if (!waiting || focused.has(id)) return;
    focused.add(id);
    const at = document.activeElement;
    if (
      (at instanceof HTMLTextAreaElement || at instanceof HTMLInputElement) &&
      at.value !== '' &&
      !target.current?.contains(at)
    )
      return;
    target.current?.focus({ preventScroll: true });
  }, [id, target, waiting]);
}
