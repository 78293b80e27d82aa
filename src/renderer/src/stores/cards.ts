/**
 * Which tool-call cards the person opened or closed by hand. Kept outside the rows: the message
 * list mounts only the rows near the viewport, and a card scrolled away and back keeps its state.
 * A card nobody touched follows its phase (open while it runs, compact once done).
 */
import { create } from 'zustand';

export const useCards = create<{ open: Record<string, boolean | undefined> }>()(() => ({ open: {} }));

export function setCardOpen(id: string, open: boolean): void {
  useCards.setState((s) => ({ open: { ...s.open, [id]: open } }));
}
