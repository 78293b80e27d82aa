/**
 * Text for the composer to take in place of what it holds, from outside it (an MCP prompt chosen
 * in the palette). Not sent: the person reads it, edits it, and sends it. `seq` tells two fills
 * of the same text apart, so the composer takes each.
 */
import { create } from 'zustand';

export const useComposerFill = create<{ fill: { text: string; seq: number } | null }>()(() => ({ fill: null }));

export function fillComposer(text: string): void {
  useComposerFill.setState((s) => ({ fill: { text, seq: (s.fill?.seq ?? 0) + 1 } }));
}
