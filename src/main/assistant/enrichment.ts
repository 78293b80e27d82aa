/**
 * Prompt enrichment: before a model reads the person's message, the enrichers of the usable
 * plugins (a function named in plugboard.json `prompt_enrichment`) each get it in turn, in plugin
 * order, and may add to it: `{prompt}` back, the whole new text, with an optional `note`. Each has
 * a deadline; one that fails, times out or answers something else is skipped and noted, never
 * blocking the turn. What the model then reads is the enriched text; the message keeps what the
 * person typed, and what each enricher added, by whom, for the transcript.
 */
import type { Enrichment } from '../../shared/assistant';
import type { PluginRegistry } from '../plugins';
import { usable } from './tools';

/** How long an enricher may take before the turn goes on without it. */
export const ENRICH_DEADLINE_MS = 3000;

export interface Enriched {
  /** The text the model reads. */
  prompt: string;
  steps: Enrichment[];
}

export async function enrich(
  registry: PluginRegistry,
  text: string,
  signal: AbortSignal,
  deadlineMs = ENRICH_DEADLINE_MS,
): Promise<Enriched> {
  let prompt = text;
  const steps: Enrichment[] = [];
  // A plugin that still needs settings cannot run: it is not asked (nor started) on every message.
  const enrichers = usable(registry)
    .filter((id) => registry.missingSettings(id).length === 0)
    .map((id) => ({ id, fn: registry.record(id)?.spec?.promptEnricher }))
    .filter((e): e is { id: string; fn: string } => e.fn !== undefined)
    .sort((a, b) => a.id.localeCompare(b.id));
  for (const { id, fn } of enrichers) {
    if (signal.aborted) break;
    const handle = registry.call(id, fn, { prompt }, { signal });
    const timer = setTimeout(() => handle.cancel(`no answer within ${deadlineMs} ms`), deadlineMs);
    const outcome = await handle.done.finally(() => clearTimeout(timer));
    if (!outcome.ok) {
      const why =
        outcome.code === 'cancelled' && !signal.aborted
          ? `took longer than ${deadlineMs / 1000} s`
          : `${outcome.code}: ${outcome.message}`;
      steps.push({ plugin: id, ok: false, note: `skipped (${why})` });
      continue;
    }
    const data = outcome.value.data as { prompt?: unknown; note?: unknown } | null;
    if (!data || typeof data.prompt !== 'string') {
      steps.push({ plugin: id, ok: false, note: `skipped: ${fn} did not answer {prompt: string}` });
      continue;
    }
    if (data.prompt === prompt) continue;
    const note = typeof data.note === 'string' && data.note.trim() ? data.note.trim().slice(0, 500) : undefined;
    // An enricher adds to the end, usually; one that rewrites says so.
    const added = data.prompt.startsWith(prompt) ? data.prompt.slice(prompt.length).trim() : undefined;
    steps.push({
      plugin: id,
      ok: true,
      note: note ?? (added !== undefined ? 'added to the message' : 'rewrote the message'),
      ...(added !== undefined ? { added } : { replaced: data.prompt }),
    });
    prompt = data.prompt;
  }
  return { prompt, steps };
}
