/**
 * The `/` palette's entries (exposed tools, user commands, and MCP prompts) and fuzzy search over
 * them. The list is fetched when the palette opens and whenever plugins change, so it is never
 * stale for longer than an open. Prompts come from the running servers and may take a moment:
 * the tools are shown first and the prompts join them when they arrive.
 */
import type Fuse from 'fuse.js';
import { create } from 'zustand';
import type { PaletteEntry } from '../../../shared/contract';
import { getApi } from '../api';
import { loadPromptEntries } from './palette-prompts';
import { paletteIndex } from './palette-search';
import { errorText } from './toasts';

interface PaletteState {
  entries: PaletteEntry[];
  /** The server's entries (tools, commands) and the prompts, kept apart so either refreshes alone. */
  tools: PaletteEntry[];
  prompts: PaletteEntry[];
  loaded: boolean;
  error: string | null;
  fuse: Fuse<PaletteEntry> | null;
}

export const usePalette = create<PaletteState>()(() => ({
  entries: [],
  tools: [],
  prompts: [],
  loaded: false,
  error: null,
  fuse: null,
}));

function publish(tools: PaletteEntry[], prompts: PaletteEntry[]): Partial<PaletteState> {
  const entries = [...tools, ...prompts];
  return { tools, prompts, entries, fuse: paletteIndex(entries) };
}

export async function loadPalette(): Promise<void> {
  const prompts = loadPromptEntries().then((p) => usePalette.setState((s) => publish(s.tools, p)));
  try {
    const tools = await getApi().invoke('palette.list', {});
    usePalette.setState((s) => ({ ...publish(tools, s.prompts), loaded: true, error: null }));
  } catch (e) {
    usePalette.setState({ loaded: true, error: errorText(e) });
  }
  await prompts;
}

export { searchPalette } from './palette-search';

/** Loads the entries unless they are loaded or loading (they are refetched when plugins change). */
let loading: Promise<void> | null = null;
export function ensurePalette(): Promise<void> {
  if (usePalette.getState().loaded) return Promise.resolve();
  loading ??= loadPalette().finally(() => (loading = null));
  return loading;
}

/** A tool's entry (its schema, its description), if it is exposed. */
export function findTool(
  entries: readonly PaletteEntry[],
  plugin: string | undefined,
  tool: string | undefined,
): PaletteEntry | undefined {
  return (
    entries.find((e) => e.kind === 'tool' && e.plugin === plugin && e.name === tool) ??
    entries.find((e) => e.plugin === plugin && e.name === tool)
  );
}

/** Plugins changed: a palette that was ever loaded is fetched again. */
export function invalidatePalette(): void {
  if (usePalette.getState().loaded) void loadPalette();
}

export { hasParameters, inlineCommand } from './palette-entry';
